#include "cli/plan_progress.hpp"

#include <cstdio>
#include <ostream>

namespace gpupack {

namespace {
// Plans faster than this show no progress at all.
constexpr std::chrono::milliseconds kQuietFor{1000};
}  // namespace

PlanProgress::PlanProgress(std::ostream& err, const Clock& clock, bool terminal)
    : err_(err), clock_(clock), terminal_(terminal), start_(clock.now()) {}

void PlanProgress::step(const std::string& what, int done, int total) {
  if (!terminal_) return;
  const auto elapsed = clock_.now() - start_;
  if (elapsed < kQuietFor) return;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", std::chrono::duration<double>(elapsed).count());
  std::string line = "gpupack plan: " + what + " (" + std::to_string(done) + " of " + std::to_string(total) +
                     " plans), " + seconds;
  const size_t length = line.size();
  if (length < shown_) line.append(shown_ - length, ' ');  // cover the end of a longer previous line
  err_ << '\r' << line << std::flush;
  shown_ = length;
}

void PlanProgress::finish() {
  if (shown_ == 0) return;
  err_ << '\r' << std::string(shown_, ' ') << '\r' << std::flush;
  shown_ = 0;
}

}  // namespace gpupack
