// libFuzzer target: any bytes as the fake GPU machine (GPUPACK_GPU_BACKEND=fake:FILE, docs/fake-gpu.md),
// read as FakeGpuBackend::from_file reads it (the strict JSON reader, then every field type- and
// range-checked): a machine or an InputError, nothing else, and under UBSan no value converted out of its
// type's range. An accepted machine replays a few snapshots and XID polls, and every device and MIG UUID it
// reports is safe in a path (the agent's <mps_root>/<uuid>/pipe).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "core/errors.hpp"
#include "gpu/fake_gpu_backend.hpp"
#include "io/json_document.hpp"

namespace {

bool path_safe(const std::string& uuid) {
  return !uuid.empty() && uuid.find('/') == std::string::npos && uuid != "." && uuid != "..";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<gpupack::FakeGpuBackend> machine;
  try {
    machine.emplace(gpupack::parse_json_document(text, "fuzz.json"));
  } catch (const gpupack::InputError&) {
    return 0;
  }
  for (int snapshot = 0; snapshot < 3; ++snapshot) {
    for (const auto& device : machine->devices()) {
      bool safe = path_safe(device.uuid);
      for (const auto& mig : device.mig_instances) safe = safe && path_safe(mig.uuid);
      if (!safe) {
        std::fprintf(stderr, "fake_machine_fuzz: a UUID that is not safe in a path was accepted\n");
        std::abort();
      }
    }
    (void)machine->poll_xid_events();
  }
  return 0;
}
