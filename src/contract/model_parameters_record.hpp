#pragma once
// The "parameters" object of a model parameters file (docs/model-parameters.md), which the plan JSON
// records as $.model.parameters: {"<name>": {"value": <number or array of numbers>, "source": "..."}, ...}.
// One writer for both, so that `gpupack model show --format json` and a plan's record read alike. The
// names and their ranges belong to the model (model/model_parameters.hpp); this is only the shape.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "contract/json_text_writer.hpp"
#include "contract/plan_document.hpp"

namespace gpupack {

// Writes the object (the writer positioned where a value goes).
void write_model_parameters(JsonTextWriter& w, const std::vector<DocModelParameter>& parameters);

// Reads the object's shape at JSON path `path` (e.g. "$.model.parameters"): each member an object with a
// "value" (a number or a non-empty array of numbers) and an optional "source" string. Throws InputError
// "<what>: <path>.<name>...: expected ...".
std::vector<DocModelParameter> read_model_parameters_shape(const nlohmann::json& parameters, const std::string& what,
                                                           const std::string& path);

}  // namespace gpupack
