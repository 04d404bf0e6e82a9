#pragma once
// Writes a FileTree as a directory, atomically: everything goes to a temporary sibling directory that
// is renamed into place at the end, so a failed render leaves nothing half-written.
#include <string>
#include <vector>

#include "os/filesystem.hpp"
#include "render/file_tree.hpp"

namespace gpupack {

// The file every rendered directory holds: --force replaces a directory only when it is there, so that
// `render -o . --force` (or a typo) never deletes what gpupack did not write.
inline constexpr const char* kRenderMarkerFile = ".gpupack-rendered";

// Where a tree goes: `dir`, replaced when `force` and it holds kRenderMarkerFile; `inputs` the files the
// command read (the plan or scenario), which the directory must not contain.
struct TreeDestination {
  std::string dir;
  bool force = false;
  std::vector<std::string> inputs;
};

// Throws InputError (exit 2: the user gave the path) when: a path in the tree is not relative and clean;
// the directory is the file system's root, contains the current directory or an input file (lexically,
// after making them absolute), or exists without `force`, or exists with `force` but was not written by a
// render (no kRenderMarkerFile); and on any I/O failure ("cannot write <dir>: <reason>"), after removing
// the temporary directory. With `force`, an existing directory is replaced only after the new tree is
// complete. Everything goes through `fs` (the Env's files, os/env.hpp); each file gets its RenderedFile mode.
void write_tree_atomically(Filesystem& fs, const TreeDestination& destination, const FileTree& tree);

}  // namespace gpupack
