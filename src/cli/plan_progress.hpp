#pragma once
// Progress of `gpupack plan` on stderr, for plans that take a while (thousands of distinct workloads, or a
// fleet compared mode by mode): nothing during the first second, then one line rewritten in place
// ("gpupack plan: mode mig (4 of 13 plans), 1.3 s") and erased at the end. Only on a terminal: a script
// that captures stderr gets no progress text, and stdout (the plan, --format json included) never does.
#include <iosfwd>
#include <string>

#include "os/clock.hpp"

namespace gpupack {

class PlanProgress {
 public:
  // `terminal`: whether `err` is a terminal (isatty); without one nothing is ever written.
  PlanProgress(std::ostream& err, const Clock& clock, bool terminal);
  // A plan starts: `what`, `done` plans of `total` finished.
  void step(const std::string& what, int done, int total);
  // Erases the line, if one was written.
  void finish();

 private:
  std::ostream& err_;
  const Clock& clock_;
  bool terminal_;
  Clock::time_point start_;
  size_t shown_ = 0;  // length of the line on screen; 0: none
};

}  // namespace gpupack
