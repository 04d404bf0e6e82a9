#pragma once
// The kinds of failure every layer reports, in one place, and the errors a user can cause. Each kind has
// one exit code (core/exit_codes.hpp); the CLI only catches and maps, so no lower layer includes cli/.
#include <stdexcept>
#include <string>

namespace gpupack {

enum class ErrorKind {
  negative,     // the command ran and the answer is "no" (a layout that does not fit, a failed run)
  input,        // bad arguments or input: the user can fix it
  unavailable,  // what the command needs is not here: no GPU, no driver, no CUDA support built in
  internal,     // a bug
};

// Bad input: an unknown name, a malformed token, an out-of-range value. The message names the bad
// token and what is accepted, in one line.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

// What the command needs is not here (no GPU or driver, CUDA not built in). The layers that meet it
// derive their own (GpuUnavailable, CudaUnavailable, DeviceUnavailable) so that callers can still tell
// them apart; all of them are ErrorKind::unavailable.
class UnavailableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gpupack
