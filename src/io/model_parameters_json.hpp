#pragma once
// The model parameters file (docs/model-parameters.md): every number of the performance model by name,
// each with where it came from, read into and written from ModelParameters (model/model_parameters.hpp).
//   {"schema": "gpupack-model", "version": 1, "name": "optional free text",
//    "parameters": {"mps_launch_cost_per_client": {"value": 0.10, "source": "fitted on ..."},
//                   "timeslicing_slowdown": {"value": [2.0, 3.1, 5.9], "source": "..."}, ...}}
// A file may name only some parameters: the others keep their values in `defaults` (the built-in ones).
// `gpupack plan --model FILE` reads it, or a `gpupack bench --json` report (io/calibration_json.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "contract/plan_document.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

inline constexpr std::string_view kModelSchema = "gpupack-model";
inline constexpr int kModelSchemaVersion = 1;

// Throws InputError, one line naming `source`, for: text that is not JSON, another schema or version, an
// unknown top-level key or parameter name, a value of the wrong type (a number where a curve's array of
// points is expected, or the other way), a value that is not finite, out of range or not whole where the
// parameter is a count (the message says what is accepted).
ModelParameters parse_model_parameters_json(std::string_view text, std::string_view source,
                                            ModelParameters defaults = {});

// `gpupack plan --model FILE`: a model parameters file ("schema": "gpupack-model") or a `gpupack bench
// --json` report (its "calibration" object), told apart by content.
ModelParameters parse_model_input(std::string_view text, std::string_view source);

// The file's text (two-space indent, parameters in parameter_specs order), without a final newline.
std::string model_parameters_json_text(const ModelParameters& m, std::string_view name);

// The parameters as the plan records them ($.model.parameters), and back: a plan read by `gpupack verify`
// predicts with the parameters it was made with. Recorded values are checked as a file's are (`source`
// names the plan in errors); a plan without the record keeps the built-in values.
std::vector<DocModelParameter> model_parameters_record(const ModelParameters& m);
ModelParameters model_parameters_from_record(const std::vector<DocModelParameter>& record, std::string_view source);

}  // namespace gpupack
