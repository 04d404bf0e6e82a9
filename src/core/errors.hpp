#pragma once
// Errors a user can cause. The CLI maps InputError to exit code 2 with its one-line message.
#include <stdexcept>
#include <string>

namespace gpupack {

// Bad input: an unknown name, a malformed token, an out-of-range value. The message names the bad
// token and what is accepted, in one line.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace gpupack
