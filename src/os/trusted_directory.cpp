#include "os/trusted_directory.hpp"

#include <cerrno>
#include <vector>

namespace gpupack {

void check_trusted_directory(const Filesystem& fs, const std::string& path) {
  const auto real = fs.real_path(path);
  if (!real) throw FileError(path + " does not exist", ENOENT);
  const unsigned me = fs.effective_uid();
  const std::string shown = *real == path ? path : path + " (" + *real + ")";
  // "/", "/a", "/a/b", ... down to the directory itself: a link resolved away is no longer in the way, the
  // directories it led through are.
  std::vector<std::string> dirs{"/"};
  for (std::size_t slash = real->find('/', 1);; slash = real->find('/', slash + 1)) {
    if (slash == std::string::npos) {
      if (*real != "/") dirs.push_back(*real);
      break;
    }
    dirs.push_back(real->substr(0, slash));
  }
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const std::string& dir = dirs[i];
    const FileInfo info = fs.stat(dir);
    if (!info.exists || !info.is_dir) throw FileError(shown + ": " + dir + " is not a directory", ENOTDIR);
    const bool last = i + 1 == dirs.size();
    const std::string where = last ? shown : shown + ": its parent " + dir;
    if (info.uid != 0 && info.uid != me) {
      throw FileError(where + " is owned by uid " + std::to_string(info.uid) + "; only root" +
                          (me ? " or uid " + std::to_string(me) : std::string()) + " may own it",
                      EPERM);
    }
    const bool sticky = (info.mode & 01000) != 0;
    const bool others_write = (info.mode & 0002) != 0 || ((info.mode & 0020) != 0 && info.gid != 0);
    if (others_write && (last || !sticky)) {
      throw FileError(where + " has mode " + mode_text(info.mode) +
                          ": writable by other users, who could plant links there" +
                          "; make it 0755 (chmod go-w)",
                      EPERM);
    }
  }
}

}  // namespace gpupack
