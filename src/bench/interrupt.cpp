#include "bench/interrupt.hpp"

#include <signal.h>

namespace gpupack::bench {

namespace {
volatile sig_atomic_t g_signal = 0;
struct sigaction g_old_int, g_old_term;

void on_signal(int sig) { g_signal = sig; }
}  // namespace

InterruptGuard::InterruptGuard() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking poll returns EINTR and the loop checks the flag
  sigaction(SIGINT, &action, &g_old_int);
  sigaction(SIGTERM, &action, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

bool interrupt_requested() { return g_signal != 0; }
int interrupt_signal() { return g_signal; }
void throw_if_interrupted() {
  if (g_signal != 0) throw Interrupted();
}
void request_interrupt_for_test(int sig) { g_signal = sig; }
void clear_interrupt() { g_signal = 0; }

}  // namespace gpupack::bench
