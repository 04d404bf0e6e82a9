#pragma once
// The versioned JSON of `gpupack model replay --format json` (docs/model-parameters.md, "Replay JSON"):
// fields are only ever added, never renamed. scripts/fit-model.py reads it.
#include <string>

#include <nlohmann/json.hpp>

#include "verify/model_replay.hpp"

namespace gpupack::verify {

inline constexpr int kReplayJsonVersion = 1;

// What the report was made from, as the JSON names it.
struct ReplaySource {
  std::string manifest;  // the manifest's path, as given
  std::string root;      // the root its paths were resolved against
  std::string set;       // "in-sample", "held-out", "corpus" or "all"
  std::string model;     // the parameters file, or "built-in"
};

nlohmann::ordered_json replay_json(const ReplayReport& report, const ReplaySource& source, const ModelParameters& m);

}  // namespace gpupack::verify
