#pragma once
// What a render produces: files with relative paths, contents and modes, written later in one go.
#include <string>
#include <vector>

namespace gpupack {

struct RenderedFile {
  std::string path;     // relative, '/'-separated, no "..": e.g. "mps/node-a/gpu0-start.sh"
  std::string content;
  int mode = 0644;      // scripts 0755, configs 0644
};

using FileTree = std::vector<RenderedFile>;

}  // namespace gpupack
