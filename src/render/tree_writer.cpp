#include "render/tree_writer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/errors.hpp"

namespace gpupack {

namespace fs = std::filesystem;

namespace {

void check_relative_path(const std::string& path) {
  const fs::path p(path);
  bool clean = !path.empty() && p.is_relative();
  for (const auto& part : p) clean = clean && part != ".." && part != "." && !part.empty();
  if (!clean) throw InputError("refusing to write '" + path + "': rendered paths must be relative and clean");
}

void write_file(const fs::path& path, const RenderedFile& file) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << file.content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
  if (::chmod(path.c_str(), static_cast<mode_t>(file.mode)) != 0) {
    throw std::runtime_error("cannot chmod " + path.string() + ": " + std::strerror(errno));
  }
}

}  // namespace

void write_tree_atomically(const std::string& dir, const FileTree& tree, bool force) {
  for (const auto& f : tree) check_relative_path(f.path);
  const fs::path target = fs::absolute(fs::path(dir)).lexically_normal();
  if (target.has_filename() == false || target == target.root_path()) {
    throw InputError("invalid output directory '" + dir + "'");
  }
  if (fs::exists(target) && !force) {
    throw InputError("output directory '" + dir + "' already exists; use --force to replace it");
  }
  const fs::path parent = target.parent_path();
  if (!fs::is_directory(parent)) {
    throw InputError("cannot create '" + dir + "': parent directory '" + parent.string() + "' does not exist");
  }
  const fs::path staging = parent / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()));
  const fs::path old = parent / ("." + target.filename().string() + ".old-" + std::to_string(::getpid()));
  std::error_code ignored;
  fs::remove_all(staging, ignored);
  try {
    fs::create_directory(staging);
    for (const auto& f : tree) write_file(staging / f.path, f);
    if (fs::exists(target)) fs::rename(target, old);
    fs::rename(staging, target);
  } catch (...) {
    fs::remove_all(staging, ignored);
    if (fs::exists(old) && !fs::exists(target)) fs::rename(old, target, ignored);
    throw;
  }
  fs::remove_all(old, ignored);
}

}  // namespace gpupack
