#include "io/input_file.hpp"

#include <cstring>
#include <utility>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

namespace {

std::string text_of(BoundedRead read, const std::string& path, std::size_t max_bytes) {
  const std::string name = quote_input(path);
  if (read.not_regular) {
    throw InputError("cannot read " + name + ": not a regular file (a FIFO, device or socket could block the reader for good); give a file");
  }
  if (!read.text) throw InputError("cannot read " + name + ": " + std::strerror(read.error));
  if (read.text->size() > max_bytes) {
    throw InputError(name + " is larger than " + format_size(max_bytes) +
                     ", the limit for input files (docs/cli.md); no scenario, plan or calibration is that large");
  }
  return std::move(*read.text);
}

}  // namespace

std::string read_input_file(const Filesystem& fs, const std::string& path, std::size_t max_bytes) {
  return text_of(fs.read_bounded(path, max_bytes), path, max_bytes);
}

std::string read_regular_input_file(const Filesystem& fs, const std::string& path, std::size_t max_bytes) {
  return text_of(fs.read_regular_bounded(path, max_bytes), path, max_bytes);
}

void write_output_file(Filesystem& fs, const std::string& path, const std::string& text) {
  try {
    fs.write_file(path, text);
  } catch (const FileError& e) {
    throw InputError("cannot write " + path + ": " + std::strerror(e.error()));
  }
}

void check_output_file(const Filesystem& fs, const std::string& option, const std::string& path) {
  const std::string name = option + " " + quote_input(path);
  if (path.empty()) throw InputError(name + ": give a file name");
  if (fs.stat(path).is_dir) throw InputError(name + ": is a folder; give a file name");
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const FileInfo info = fs.stat(dir);
  if (!info.exists || !info.is_dir) throw InputError(name + ": cannot write it: no folder " + quote_input(dir));
  if (!fs.writable(dir)) throw InputError(name + ": cannot write it: the folder " + quote_input(dir) + " is not writable");
}

}  // namespace gpupack
