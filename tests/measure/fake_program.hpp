#pragma once
// A measured program simulated on a fake clock: the runner "starts" it, it exits or is signalled at
// fake times, and its client report appears line by line as the clock moves. Its own clock `t` is
// offset from gpupack's (by 100 s) so the tests check the alignment too.
#include <signal.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "fakes/fake_clock.hpp"
#include "measure/report_source.hpp"
#include "measure/steady_profile.hpp"
#include "os/process_runner.hpp"

namespace gpupack::testing {

struct FakeProgramBehaviour {
  double exit_after = std::numeric_limits<double>::infinity();  // seconds after start; exit code 0
  bool ignores_sigterm = false;
  bool reports = true;
  double ready_after = 1.0;  // seconds after start; < 0: never says ready
  double request_every = 0.01;
  double warmup_latency_ms = 50;  // the latency of requests before the ready line
  double latency_ms = 2;          // after it
  bool garbage = false;           // writes malformed lines instead
};

class FakeProgramWorld : public ProcessRunner {
 public:
  static constexpr double kProgramClockOffset = 100;  // the program's t = gpupack's seconds + 100
  explicit FakeProgramWorld(FakeClock& clock) : clock_(clock) {}

  // Chooses the behaviour of the next program from its spec (e.g. its MPS thread percentage).
  std::function<FakeProgramBehaviour(const ProcessSpec&)> behaviour = [](const ProcessSpec&) { return FakeProgramBehaviour{}; };
  std::vector<ProcessSpec> spawned;
  std::vector<int> signals;  // received by the programs, in order
  int pid = 4242;

  class Child : public ChildProcess {
   public:
    Child(FakeProgramWorld& w) : w_(w) {}
    int pid() const override { return w_.pid; }
    std::optional<int> poll() override {
      if (w_.ended_at_ <= w_.clock_.seconds()) return w_.exit_code_;
      return std::nullopt;
    }
    int wait() override {
      if (w_.ended_at_ == std::numeric_limits<double>::infinity()) w_.end(0);  // never for these tests
      return w_.exit_code_;
    }
    void signal(int sig) override {
      w_.signals.push_back(sig);
      if (sig == SIGKILL || !w_.b_.ignores_sigterm) w_.end(128 + sig);
    }

   private:
    FakeProgramWorld& w_;
  };

  std::unique_ptr<ChildProcess> spawn(const ProcessSpec& spec) override {
    spawned.push_back(spec);
    b_ = behaviour(spec);
    started_ = clock_.seconds();
    ended_at_ = started_ + b_.exit_after;
    exit_code_ = 0;
    emitted_until_ = started_;
    next_request_ = 1;
    return std::make_unique<Child>(*this);
  }
  ProcessResult run(const ProcessSpec&) override { return {}; }
  bool is_alive(int) const override { return false; }
  bool send_signal(int, int) override { return false; }
  std::optional<std::string> find_program(const std::string& name) const override { return name; }

  // The report the current program has written up to now.
  class Report : public measure::ReportSource {
   public:
    explicit Report(FakeProgramWorld& w) : w_(w) {}
    std::string read_new(std::size_t) override { return w_.emit(); }

   private:
    FakeProgramWorld& w_;
  };

 private:
  void end(int code) {
    if (ended_at_ > clock_.seconds()) {
      ended_at_ = clock_.seconds();
      exit_code_ = code;
    }
  }

  std::string line(double at, const std::string& body) {
    return "{\"v\":1," + body + ",\"t\":" + std::to_string(at + kProgramClockOffset) + "}\n";
  }

  // Lines for events in (emitted_until_, min(now, end)].
  std::string emit() {
    const double until = std::min(clock_.seconds(), ended_at_);
    std::string out;
    if (!b_.reports) return out;
    const double ready = started_ + b_.ready_after;
    if (!b_.garbage && b_.ready_after >= 0 && ready > emitted_until_ && ready <= until) out += line(ready, "\"event\":\"ready\"");
    // Counted, not recomputed from the times: a read exactly at a request's time must not emit it twice.
    double k = next_request_;
    for (; started_ + k * b_.request_every <= until; ++k) {
      const double at = started_ + k * b_.request_every;
      if (b_.garbage) {
        out += "not json at " + std::to_string(at) + "\n";
        continue;
      }
      const double latency = (b_.ready_after < 0 || at < ready) ? b_.warmup_latency_ms : b_.latency_ms;
      out += line(at, "\"event\":\"request\",\"latency_ms\":" + std::to_string(latency));
    }
    next_request_ = k;
    emitted_until_ = until;
    return out;
  }

  FakeClock& clock_;
  FakeProgramBehaviour b_;
  double started_ = 0, ended_at_ = 0, emitted_until_ = 0, next_request_ = 1;
  int exit_code_ = 0;
};

// Runs `measure` and expects a ProfileError whose message contains `part`.
template <class F>
void expect_profile_error(F&& measure, const std::string& part) {
  try {
    measure();
    ADD_FAILURE() << "no error; expected one saying '" << part << "'";
  } catch (const measure::ProfileError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

}  // namespace gpupack::testing
