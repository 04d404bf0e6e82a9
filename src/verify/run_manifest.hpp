#pragma once
// The manifest of recorded verify runs (results/model-runs.json, docs/model-parameters.md): the runs
// `gpupack model replay` predicts again and compares with what verify measured, each in the set it
// belongs to (in-sample: some model constant was fitted on it; held-out: measured with a model committed
// before it and fitted on nothing since; corpus: programs no constant was ever fitted on, issue 36), and the
// folder of workload profiles the runs are predicted from (a run may name its own: the corpus runs were each
// planned from profiles measured in that run).
//   {"schema": "gpupack-runs", "version": 1, "about": "...", "profiles": "tests/planner/data/profiles-...",
//    "sets": {"in-sample": "what it means", ...},
//    "runs": [{"dir": "results/...", "scenario": "tests/planner/data/x.yaml", "gpu": "H100-SXM5-80GB",
//              "machine": "run1", "set": "in-sample", "profiles": "results/.../profiles" (optional)}, ...]}
// Every path is relative to one root (the repository's): `gpupack model replay --root DIR`, by default the
// parent of the manifest's folder. Pure: parses text.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpupack::verify {

inline constexpr std::string_view kRunManifestSchema = "gpupack-runs";
inline constexpr int kRunManifestVersion = 1;

enum class RunSet { in_sample, held_out, corpus };

std::string_view run_set_name(RunSet set);
// "in-sample", "held-out" or "corpus"; none for anything else.
std::optional<RunSet> parse_run_set(std::string_view name);

struct RecordedRun {
  std::string dir;       // holds the run's plan.json and verify.json
  std::string scenario;  // the scenario file the plan was made from
  std::string gpu;       // the GPU model it ran on, as the catalog names it
  std::string machine;   // which machine (results/README.md): runs on one machine share its tails
  RunSet set = RunSet::in_sample;
  // The folder of <workload>.json profiles this run is predicted from; empty: the manifest's.
  std::string profiles;
};

struct RunManifest {
  std::string profiles;  // the folder of <workload>.json profiles of every run that names none
  std::vector<RecordedRun> runs;
};

// Throws InputError, one line naming `source` and what is accepted, for: text that is not JSON, another
// schema or version, an unknown key, a missing or empty field, a path that is absolute or climbs out of
// the root (".."), a set other than in-sample, held-out and corpus, a run dir listed twice, no runs.
RunManifest parse_run_manifest(std::string_view text, std::string_view source);

}  // namespace gpupack::verify
