#pragma once
// The scenario `gpupack plan` plans when given no file: the lab's question, "pack 40 small inference
// models onto one A100-80GB: which mode, and what breaks if you pick wrong?" (examples/lab-40-models.yaml
// holds the same text).
#include <string_view>

namespace gpupack {

std::string_view default_scenario_yaml();
inline constexpr std::string_view kDefaultScenarioName = "<embedded default: 40 models on one A100-80GB>";

}  // namespace gpupack
