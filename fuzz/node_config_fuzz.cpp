// libFuzzer target: any bytes as node.yaml (src/contract/node_config_reader.cpp). The parser must
// return a config or throw InputError (exit 2); any other exception is a crash here (exit 70 there).
#include <cstddef>
#include <cstdint>
#include <string>

#include "contract/node_config.hpp"
#include "core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)gpupack::parse_node_config(text, "fuzz.yaml");
  } catch (const gpupack::InputError&) {
  }
  return 0;
}
