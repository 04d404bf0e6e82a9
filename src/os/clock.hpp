#pragma once
// Time behind an interface: the supervisor's backoff and the profiler's sampling use it, tests may
// substitute a clock that does not really sleep.
#include <chrono>
#include <string>

namespace gpupack {

class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  virtual ~Clock() = default;
  virtual time_point now() const = 0;
  virtual void sleep_for(std::chrono::milliseconds d) = 0;
  // Seconds since the Unix epoch, for timestamps people read.
  virtual double unix_seconds() const = 0;
};

class SystemClock : public Clock {
 public:
  time_point now() const override;
  void sleep_for(std::chrono::milliseconds d) override;
  double unix_seconds() const override;
};

// RFC 3339 UTC text of a Unix time: "2026-11-27T14:25:00Z", or with `millis` "2026-11-27T14:25:00.123Z"
// (log lines, where several a second must stay ordered).
std::string rfc3339_utc(double unix_seconds, bool millis = false);

}  // namespace gpupack
