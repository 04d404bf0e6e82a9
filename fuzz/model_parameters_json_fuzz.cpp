// libFuzzer target: any bytes as `gpupack plan --model FILE` (a model parameters file or a bench report).
// The reader must return parameters whose every value its parameter accepts, and that write back to a file
// the reader reads to the same values, or throw InputError; nothing else.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "io/model_parameters_json.hpp"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "model_parameters_json_fuzz: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpupack::ModelParameters m;
  try {
    m = gpupack::parse_model_input(text, "fuzz.json");
  } catch (const gpupack::InputError&) {
    return 0;
  }
  for (const gpupack::ParameterSpec& spec : gpupack::parameter_specs()) {
    for (std::size_t i = 0; i < spec.size; ++i) require(spec.accepts(spec.get(m, i)), "accepted an impossible value");
  }
  // Written and read back: the same values (the plan records them this way).
  const gpupack::ModelParameters again =
      gpupack::parse_model_parameters_json(gpupack::model_parameters_json_text(m, "fuzz"), "again.json");
  for (const gpupack::ParameterSpec& spec : gpupack::parameter_specs()) {
    for (std::size_t i = 0; i < spec.size; ++i) require(spec.get(m, i) == spec.get(again, i), "a value changed on the round trip");
  }
  return 0;
}
