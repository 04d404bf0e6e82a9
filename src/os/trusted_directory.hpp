#pragma once
// Whether a directory that a root daemon works in can be changed by anyone but root and the daemon's own
// user. The agent runs as root under node.yaml's mps_root: whoever can write mps_root, or any directory
// above it, can swap what the agent opens there for a symbolic link to a file of their choosing
// (docs/security.md).
#include <string>

#include "os/filesystem.hpp"

namespace gpupack {

// Throws FileError (EPERM) naming the first directory, from / down to `path` with every link resolved,
// that a user other than root and the effective user could change: owned by such a user, writable by
// others, or writable by a group other than root's. A directory above `path` with the sticky bit (/tmp) may
// be world-writable: nobody else can rename or remove what root or we own in it. `path` must exist
// (FileError, ENOENT): create it first, then check, so that a directory planted before the creation is
// seen.
void check_trusted_directory(const Filesystem& fs, const std::string& path);

}  // namespace gpupack
