#include "render/tree_writer.hpp"

#include <filesystem>

#include "core/errors.hpp"

namespace gpupack {

namespace {

// Lexical only (std::filesystem::path as a parser): the file system is reached through `fs`.
void check_relative_path(const std::string& path) {
  const std::filesystem::path p(path);
  bool clean = !path.empty() && p.is_relative();
  for (const auto& part : p) clean = clean && part != ".." && part != "." && !part.empty();
  if (!clean) throw InputError("refusing to write '" + path + "': rendered paths must be relative and clean");
}

void write_file(Filesystem& fs, const std::string& root, const RenderedFile& file) {
  const std::string path = root + "/" + file.path;
  const std::string dir = path.substr(0, path.rfind('/'));
  if (!fs.stat(dir).is_dir) fs.make_dirs(dir, 0755);
  fs.write_file(path, file.content);
  fs.set_mode(path, file.mode);
}

// The directory `dir` names, absolute and normal. "out/" is the directory out (docs write it so); ".",
// ".." and "/" are refused: replacing them would replace the working directory or its parents.
std::filesystem::path output_directory_path(const Filesystem& fs, const std::string& dir) {
  std::string trimmed = dir;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  const std::filesystem::path name = std::filesystem::path(trimmed).filename();
  const std::filesystem::path target = std::filesystem::path(fs.absolute(trimmed)).lexically_normal();
  if (name.empty() || name == "." || name == ".." || !target.has_filename() || target == target.root_path()) {
    throw InputError("invalid output directory '" + dir + "': name a directory to create, e.g. out/");
  }
  return target;
}

}  // namespace

void write_tree_atomically(Filesystem& fs, const std::string& dir, const FileTree& tree, bool force) {
  for (const auto& f : tree) check_relative_path(f.path);
  const std::filesystem::path target_path = output_directory_path(fs, dir);
  const std::string target = target_path.string();
  if (fs.stat(target).exists && !force) {
    throw InputError("output directory '" + dir + "' already exists; use --force to replace it");
  }
  const std::string parent = target_path.parent_path().string();
  if (!fs.stat(parent).is_dir) {
    throw InputError("cannot create '" + dir + "': parent directory '" + parent + "' does not exist");
  }
  // A fresh hidden sibling: the rename at the end stays within one file system.
  const std::string staging = fs.make_temp_dir(parent, "." + target_path.filename().string() + ".tmp");
  const std::string old = staging + ".old";
  try {
    fs.set_mode(staging, 0755);
    for (const auto& f : tree) write_file(fs, staging, f);
    if (fs.stat(target).exists) fs.rename(target, old);
    fs.rename(staging, target);
  } catch (...) {
    fs.remove_all(staging);
    if (fs.stat(old).exists && !fs.stat(target).exists) {
      try {
        fs.rename(old, target);
      } catch (const std::exception&) {
      }
    }
    throw;
  }
  fs.remove_all(old);
}

}  // namespace gpupack
