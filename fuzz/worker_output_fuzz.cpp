// libFuzzer target: any bytes as a bench worker's stdout (the JSON reader of gpupack bench,
// src/bench/worker_protocol.hpp). It returns a JSON object or throws std::runtime_error naming the
// worker, as documented; any other exception or a crash is a bug.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "bench/worker_protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json result = gpupack::bench::parse_worker_output(text, "fuzz worker");
    if (!result.is_object()) __builtin_trap();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
