#include "render/tree_writer.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {

namespace stdfs = std::filesystem;  // as a parser of paths only: the file system is reached through `fs`

constexpr const char* kMarkerText =
    "This directory was written by gpupack render.\n"
    "`gpupack render -o DIR --force` replaces a directory only when this file is in it.\n";

void check_relative_path(const std::string& path) {
  const stdfs::path p(path);
  bool clean = !path.empty() && p.is_relative();
  for (const auto& part : p) clean = clean && part != ".." && part != "." && !part.empty();
  if (!clean) {
    throw InputError("refusing to write '" + quote_input(path) + "': rendered paths must be relative and clean");
  }
}

// `path` absolute and lexically normal, without a trailing separator ("/a/b/." -> "/a/b").
stdfs::path normal_absolute(const Filesystem& fs, const std::string& path) {
  stdfs::path p = stdfs::path(fs.absolute(path)).lexically_normal();
  if (!p.has_filename() && p != p.root_path()) p = p.parent_path();
  return p;
}

// Whether `inner` is `outer` or lies under it (both normal and absolute).
bool within(const stdfs::path& inner, const stdfs::path& outer) {
  auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return o == outer.end();
}

void check_destination(const Filesystem& fs, const TreeDestination& d, const stdfs::path& target) {
  const std::string name = "output directory '" + quote_input(d.dir) + "'";
  if (!target.has_filename() || target == target.root_path()) throw InputError("invalid " + name);
  if (within(normal_absolute(fs, "."), target)) {
    throw InputError(name + " is the current directory or one of its parents; give a new directory");
  }
  for (const std::string& input : d.inputs) {
    if (!input.empty() && within(normal_absolute(fs, input), target)) {
      throw InputError(name + " contains the input '" + quote_input(input) + "'; give a directory beside it");
    }
  }
  const FileInfo info = fs.stat(target.string());
  if (!info.exists) return;
  if (!d.force) throw InputError(name + " already exists; use --force to replace it");
  if (!info.is_dir || !fs.stat((target / kRenderMarkerFile).string()).exists) {
    throw InputError(
        name + " exists and was not written by gpupack render (no " + kRenderMarkerFile +
        " in it); --force replaces only a rendered directory: remove it yourself or give another");
  }
}

void write_file(Filesystem& fs, const std::string& root, const RenderedFile& file) {
  const std::string path = root + "/" + file.path;
  const std::string dir = path.substr(0, path.rfind('/'));
  if (!fs.stat(dir).is_dir) fs.make_dirs(dir, 0755);
  fs.write_file(path, file.content);
  fs.set_mode(path, file.mode);
}

}  // namespace

void write_tree_atomically(Filesystem& fs, const TreeDestination& destination, const FileTree& tree) {
  for (const auto& f : tree) check_relative_path(f.path);
  const stdfs::path target_path = normal_absolute(fs, destination.dir);
  check_destination(fs, destination, target_path);
  const std::string target = target_path.string();
  const std::string parent = target_path.parent_path().string();
  if (!fs.stat(parent).is_dir) {
    throw InputError("cannot create '" + quote_input(destination.dir) + "': parent directory '" +
                     quote_input(parent) + "' does not exist");
  }
  std::string staging;
  std::string old;
  try {
    // A fresh hidden sibling: the rename at the end stays within one file system.
    staging = fs.make_temp_dir(parent, "." + target_path.filename().string() + ".tmp");
    old = staging + ".old";
    fs.set_mode(staging, 0755);
    for (const auto& f : tree) write_file(fs, staging, f);
    write_file(fs, staging, {kRenderMarkerFile, kMarkerText, 0644});
    if (fs.stat(target).exists) fs.rename(target, old);
    fs.rename(staging, target);
  } catch (const std::exception& e) {
    if (!staging.empty()) fs.remove_all(staging);
    if (!old.empty() && fs.stat(old).exists && !fs.stat(target).exists) {
      try {
        fs.rename(old, target);
      } catch (const std::exception&) {
      }
    }
    if (dynamic_cast<const InputError*>(&e)) throw;
    // The user gave the path (exit 2), e.g. -o /proc/x or a full file system; never an internal error.
    const auto* file_error = dynamic_cast<const FileError*>(&e);
    throw InputError("cannot write output directory '" + quote_input(destination.dir) +
                     "': " + (file_error ? std::strerror(file_error->error()) : e.what()));
  }
  fs.remove_all(old);
}

}  // namespace gpupack
