#include "os/clock.hpp"

#include <thread>

namespace gpupack {

Clock::time_point SystemClock::now() const { return std::chrono::steady_clock::now(); }

void SystemClock::sleep_for(std::chrono::milliseconds d) { std::this_thread::sleep_for(d); }

double SystemClock::unix_seconds() const {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace gpupack
