#pragma once
// The manifest of recorded verify runs (results/model-runs.json, docs/model-parameters.md): the runs
// `gpupack model replay` predicts again and compares with what verify measured, each in the set it
// belongs to (in-sample: some model constant was fitted on it; held-out: measured with a model committed
// before it and fitted on nothing since), and the folder of workload profiles every run is predicted from.
//   {"schema": "gpupack-runs", "version": 1, "about": "...", "profiles": "tests/planner/data/profiles-...",
//    "sets": {"in-sample": "what it means", ...},
//    "runs": [{"dir": "results/...", "scenario": "tests/planner/data/x.yaml", "gpu": "H100-SXM5-80GB",
//              "machine": "run1", "set": "in-sample"}, ...]}
// Every path is relative to one root (the repository's): `gpupack model replay --root DIR`, by default the
// parent of the manifest's folder. Pure: parses text.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpupack::verify {

inline constexpr std::string_view kRunManifestSchema = "gpupack-runs";
inline constexpr int kRunManifestVersion = 1;

enum class RunSet { in_sample, held_out };

std::string_view run_set_name(RunSet set);
// "in-sample" or "held-out"; none for anything else.
std::optional<RunSet> parse_run_set(std::string_view name);

struct RecordedRun {
  std::string dir;       // holds the run's plan.json and verify.json
  std::string scenario;  // the scenario file the plan was made from
  std::string gpu;       // the GPU model it ran on, as the catalog names it
  std::string machine;   // which machine (results/README.md): runs on one machine share its tails
  RunSet set = RunSet::in_sample;
};

struct RunManifest {
  std::string profiles;  // the folder of <workload>.json profiles every run is predicted from
  std::vector<RecordedRun> runs;
};

// Throws InputError, one line naming `source` and what is accepted, for: text that is not JSON, another
// schema or version, an unknown key, a missing or empty field, a path that is absolute or climbs out of
// the root (".."), a set other than in-sample and held-out, a run dir listed twice, no runs.
RunManifest parse_run_manifest(std::string_view text, std::string_view source);

}  // namespace gpupack::verify
