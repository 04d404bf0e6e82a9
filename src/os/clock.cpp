#include "os/clock.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <thread>

namespace gpupack {

Clock::time_point SystemClock::now() const { return std::chrono::steady_clock::now(); }

void SystemClock::sleep_for(std::chrono::milliseconds d) { std::this_thread::sleep_for(d); }

double SystemClock::unix_seconds() const {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

std::string rfc3339_utc(double unix_seconds, bool millis) {
  // Whole milliseconds first, so 59.9996 s reads .999 of that second, never a 60th second.
  const auto ms = static_cast<long long>(std::floor(unix_seconds * 1000.0));
  const std::time_t t = static_cast<std::time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[40];
  std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  if (millis) n += static_cast<std::size_t>(std::snprintf(text + n, sizeof text - n, ".%03lld", ((ms % 1000) + 1000) % 1000));
  return std::string(text, n) + "Z";
}

}  // namespace gpupack
