#include "io/input_file.hpp"

#include <cstring>
#include <utility>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

std::string read_input_file(const Filesystem& fs, const std::string& path, std::size_t max_bytes) {
  const std::string name = quote_input(path);
  BoundedRead read = fs.read_bounded(path, max_bytes);
  if (!read.text) throw InputError("cannot read " + name + ": " + std::strerror(read.error));
  if (read.text->size() > max_bytes) {
    throw InputError(name + " is larger than " + format_size(max_bytes) +
                     ", the limit for input files (docs/cli.md); no scenario, plan or calibration is that large");
  }
  return std::move(*read.text);
}

std::string read_input_file(const std::string& path, std::size_t max_bytes) {
  return read_input_file(PosixFilesystem{}, path, max_bytes);
}

}  // namespace gpupack
