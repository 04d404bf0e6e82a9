#include "io/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace gpupack {

std::string read_input_file(const std::string& path, std::size_t max_bytes) {
  const std::string name = quote_input(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + name + ": " + std::strerror(errno));
  // Read in chunks and stop one byte past the limit: a device or pipe (/dev/zero) has no size to ask.
  std::string text;
  char chunk[64 * 1024];
  while (in && text.size() <= max_bytes) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (text.size() > max_bytes) {
    throw InputError(name + " is larger than " + format_size(max_bytes) +
                     ", the limit for input files (docs/cli.md); no scenario, plan or calibration is that large");
  }
  if (in.bad()) throw InputError("cannot read " + name + ": " + std::strerror(errno));
  return text;
}

}  // namespace gpupack
