#include "cli/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace gpupack {

std::string read_input_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace gpupack
