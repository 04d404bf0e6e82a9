#pragma once
// The real file system with a few answers overridden, to provoke what a test cannot set up for real
// without root: a directory owned by another user, one that is not writable.
#include <map>
#include <set>
#include <string>

#include "os/filesystem.hpp"

namespace gpupack::testing {

class OverridingFilesystem : public PosixFilesystem {
 public:
  std::map<std::string, unsigned> owner_of;  // path -> uid reported by stat
  std::set<std::string> read_only;           // paths reported as not writable

  FileInfo stat(const std::string& path) const override {
    FileInfo info = PosixFilesystem::stat(path);
    if (auto it = owner_of.find(path); it != owner_of.end() && info.exists) info.uid = it->second;
    return info;
  }
  FileInfo link_stat(const std::string& path) const override {
    FileInfo info = PosixFilesystem::link_stat(path);
    if (auto it = owner_of.find(path); it != owner_of.end() && info.exists) info.uid = it->second;
    return info;
  }
  bool writable(const std::string& path) const override {
    return !read_only.count(path) && PosixFilesystem::writable(path);
  }
};

}  // namespace gpupack::testing
