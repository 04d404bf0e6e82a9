#include "os/environment.hpp"

#include <cstdlib>

namespace gpupack {

std::optional<std::string> ProcessEnvironment::get(const std::string& name) const {
  const char* value = std::getenv(name.c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

std::string temp_root(const Environment& vars) {
  const auto dir = vars.get("TMPDIR");
  return dir && !dir->empty() ? *dir : "/tmp";
}

}  // namespace gpupack
