#pragma once
// A clock that only moves when someone sleeps on it: tests of timed loops (sampling windows, timeouts,
// backoff) run in microseconds and give the same result every time.
#include <chrono>

#include "os/clock.hpp"

namespace gpupack::testing {

class FakeClock : public Clock {
 public:
  time_point now() const override { return time_point{} + std::chrono::hours(1) + elapsed_; }
  void sleep_for(std::chrono::milliseconds d) override { elapsed_ += d; }
  double unix_seconds() const override { return 1.7e9 + seconds(); }
  // Seconds since the clock was made.
  double seconds() const { return std::chrono::duration<double>(elapsed_).count(); }

 private:
  std::chrono::milliseconds elapsed_{0};
};

}  // namespace gpupack::testing
