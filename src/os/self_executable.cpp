#include "os/self_executable.hpp"

#include <unistd.h>

#include <stdexcept>

namespace gpupack {

std::string self_executable() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw std::runtime_error("cannot find gpupack's own executable (/proc/self/exe)");
  return std::string(path, static_cast<size_t>(n));
}

}  // namespace gpupack
