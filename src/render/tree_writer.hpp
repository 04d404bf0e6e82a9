#pragma once
// Writes a FileTree as a directory, atomically: everything goes to a temporary sibling directory that
// is renamed into place at the end, so a failed render leaves nothing half-written.
#include <string>

#include "os/filesystem.hpp"
#include "render/file_tree.hpp"

namespace gpupack {

// Throws InputError when `dir` exists and `force` is false, or a path in the tree is not relative and
// clean; std::runtime_error (with the path and errno text) on I/O failures, after removing the temporary
// directory. With `force`, an existing `dir` is replaced only after the new tree is complete. Everything
// goes through `fs` (the Env's files, os/env.hpp); each file gets its RenderedFile mode.
void write_tree_atomically(Filesystem& fs, const std::string& dir, const FileTree& tree, bool force);

}  // namespace gpupack
