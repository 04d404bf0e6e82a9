#pragma once
// A private directory for one command's temporary files (client reports, a private MPS daemon's pipe
// and log directories) under $TMPDIR or /tmp, removed with its contents when the object goes.
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace gpupack {

class ScratchDir {
 public:
  // `prefix` names the command, e.g. "gpupack-profile"; throws std::runtime_error when mkdtemp fails.
  explicit ScratchDir(const std::string& prefix) {
    const char* base = std::getenv("TMPDIR");
    const std::string dir = base && *base ? base : "/tmp";
    std::string tmpl = dir + "/" + prefix + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary directory under " + dir);
    path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace gpupack
