#include "bench/progress.hpp"

#include <fmt/format.h>

#include <ostream>

namespace gpupack::bench {

Progress::Progress(std::ostream& out, bool terminal)
    : out_(out), terminal_(terminal), start_(std::chrono::steady_clock::now()) {}

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::step(const std::string& what) {
  const std::string line = fmt::format("gpupack bench [{:5.1f} s] {}", elapsed_s(), what);
  if (terminal_) {
    out_ << "\r\033[K" << line << std::flush;
    open_line_ = true;
  } else {
    out_ << line << '\n' << std::flush;
  }
}

void Progress::note(const std::string& line) {
  if (open_line_) out_ << "\r\033[K";
  open_line_ = false;
  out_ << "gpupack bench: " << line << '\n' << std::flush;
}

void Progress::done() {
  if (open_line_) out_ << "\r\033[K" << std::flush;
  open_line_ = false;
}

}  // namespace gpupack::bench
