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

void write_output_file(Filesystem& fs, const std::string& path, const std::string& text) {
  try {
    fs.write_file(path, text);
  } catch (const FileError& e) {
    throw InputError("cannot write " + path + ": " + std::strerror(e.error()));
  }
}

}  // namespace gpupack
