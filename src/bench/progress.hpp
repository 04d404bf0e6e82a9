#pragma once
// The progress line on stderr: rewritten in place on a terminal, one line per step otherwise (logs).
#include <chrono>
#include <iosfwd>
#include <string>

namespace gpupack::bench {

class Progress {
 public:
  Progress(std::ostream& out, bool terminal);
  void step(const std::string& what);
  void note(const std::string& line);  // a line that stays (a skipped part, a warning)
  void done();
  double elapsed_s() const;

 private:
  std::ostream& out_;
  bool terminal_;
  bool open_line_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gpupack::bench
