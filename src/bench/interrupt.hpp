#pragma once
// Ctrl-C and SIGTERM during a bench run: the handler only sets a flag; the wait loops see it and throw
// Interrupted, so that destructors end the workers and quit gpupack's MPS daemon on the way out.
#include <stdexcept>

namespace gpupack::bench {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

// Installs the SIGINT/SIGTERM handlers for the life of the object and restores the old ones after.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

bool interrupt_requested();
int interrupt_signal();                // the signal that arrived (0 if none)
void throw_if_interrupted();           // throws Interrupted after a signal
void request_interrupt_for_test(int sig);  // what the handler does, for tests
void clear_interrupt();

}  // namespace gpupack::bench
