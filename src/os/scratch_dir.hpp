#pragma once
// A private directory for one command's temporary files (client reports, a private MPS daemon's pipe
// and log directories) under $TMPDIR or /tmp, removed with its contents when the object goes.
#include <string>

#include "os/env.hpp"

namespace gpupack {

class ScratchDir {
 public:
  // `prefix` names the command, e.g. "gpupack-profile"; the directory goes under temp_root(env.vars).
  // Throws FileError when it cannot be made.
  ScratchDir(Filesystem& fs, const Environment& vars, const std::string& prefix)
      : fs_(fs), path_(fs.make_temp_dir(temp_root(vars), prefix)) {}
  ScratchDir(const Env& env, const std::string& prefix) : ScratchDir(env.fs, env.vars, prefix) {}
  ~ScratchDir() { fs_.remove_all(path_); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  Filesystem& fs_;
  std::string path_;
};

}  // namespace gpupack
