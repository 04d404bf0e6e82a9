#pragma once
// Fakes for verify's session tests: a clock that only moves when slept on, child processes whose life is
// scripted in that clock, and client reports written as the clock passes, in the program's own clock
// (offset from gpupack's, as a real program's time.monotonic() would be).
#include <signal.h>

#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "measure/report_source.hpp"
#include "fakes/fake_clock.hpp"
#include "os/clock.hpp"
#include "os/process_runner.hpp"

namespace gpupack::testing {

// How one replica (by GPUPACK_VERIFY_REPLICA) behaves.
struct Script {
  double ready_after_s = 0.5;               // since its start; none: never
  bool never_ready = false;
  std::optional<double> exit_after_s;       // it ends by itself this long after its start
  int exit_code = 0;
  double latency_ms = 2;
  double request_every_s = 0.01;
  bool ignores_sigterm = false;
  std::optional<std::uint64_t> gpu_memory;  // shown on the GPU while it runs
};

struct World;

class FakeChild : public ChildProcess {
 public:
  FakeChild(World& w, int pid, Script s, double started) : world_(w), pid_(pid), script_(s), started_(started) {}
  int pid() const override { return pid_; }
  std::optional<int> poll() override;
  int wait() override {
    if (!code_) code_ = 128 + SIGKILL;
    return *code_;
  }
  void signal(int sig) override;
  bool running() { return !poll().has_value(); }
  const Script& script() const { return script_; }
  double started() const { return started_; }
  std::vector<int> signals;

 private:
  World& world_;
  int pid_;
  Script script_;
  double started_;
  std::optional<int> code_;
};

struct World {
  FakeClock clock;
  std::map<std::string, Script> scripts;  // by replica name; default Script otherwise
  std::vector<ProcessSpec> spawned;
  std::vector<FakeChild*> children;
  std::vector<std::shared_ptr<FakeChild>> owned;  // outlive the session, so tests can look at them after
  double program_clock_offset = 1000;    // the programs' t = gpupack's clock + this
  bool latency_scales = false;           // a request's latency = the script's x the children running
  int running() const {
    int n = 0;
    for (const auto& c : owned) n += c->running() ? 1 : 0;
    return n;
  }
};

inline std::optional<int> FakeChild::poll() {
  if (!code_ && script_.exit_after_s && world_.clock.seconds() >= started_ + *script_.exit_after_s) code_ = script_.exit_code;
  return code_;
}
inline void FakeChild::signal(int sig) {
  signals.push_back(sig);
  if (poll()) return;
  if (sig == SIGKILL || !script_.ignores_sigterm) code_ = 128 + sig;
}

// What the session holds: a handle to a child the world keeps.
class Handle : public ChildProcess {
 public:
  explicit Handle(std::shared_ptr<FakeChild> c) : c_(std::move(c)) {}
  int pid() const override { return c_->pid(); }
  std::optional<int> poll() override { return c_->poll(); }
  int wait() override { return c_->wait(); }
  void signal(int sig) override { c_->signal(sig); }

 private:
  std::shared_ptr<FakeChild> c_;
};

class FakeRunner : public ProcessRunner {
 public:
  explicit FakeRunner(World& w) : world_(w) {}
  ProcessResult run(const ProcessSpec&) override { return {}; }
  std::unique_ptr<ChildProcess> spawn(const ProcessSpec& spec) override {
    world_.spawned.push_back(spec);
    const auto name = spec.env.count("GPUPACK_VERIFY_REPLICA") ? spec.env.at("GPUPACK_VERIFY_REPLICA") : "";
    const Script s = world_.scripts.count(name) ? world_.scripts.at(name) : Script{};
    auto child = std::make_shared<FakeChild>(world_, 100 + static_cast<int>(world_.spawned.size()), s, world_.clock.seconds());
    world_.children.push_back(child.get());
    world_.owned.push_back(child);
    return std::make_unique<Handle>(child);
  }
  bool is_alive(int) const override { return false; }
  bool send_signal(int, int) override { return true; }
  std::optional<std::string> find_program(const std::string& name) const override { return name; }

 private:
  World& world_;
};

// The report a scripted child writes: its ready line, then after the go file exists one request line
// per request_every_s, all in the program's clock.
class FakeReport : public measure::ReportSource {
 public:
  FakeReport(World& w, std::string path, std::string go) : world_(w), path_(std::move(path)), go_(std::move(go)) {}
  std::string read_new(std::size_t) override {
    FakeChild* child = find_child();
    if (!child) return "";
    const Script& s = child->script();
    const double now = world_.clock.seconds();
    std::string out;
    const double ready = child->started() + s.ready_after_s;
    if (!s.never_ready && !wrote_ready_ && now >= ready && child->running()) {
      out += fmt::format("{{\"v\":1,\"event\":\"ready\",\"t\":{}}}\n", ready + world_.program_clock_offset);
      wrote_ready_ = true;
    }
    if (wrote_ready_ && !go_seen_ && std::filesystem::exists(go_)) {
      go_seen_ = true;
      next_request_ = now;
    }
    while (go_seen_ && child->running() && next_request_ <= now) {
      out += fmt::format("{{\"v\":1,\"event\":\"request\",\"t\":{},\"latency_ms\":{}}}\n", next_request_ + world_.program_clock_offset,
                         s.latency_ms * (world_.latency_scales ? world_.running() : 1));
      next_request_ += s.request_every_s;
    }
    return out;
  }

 private:
  FakeChild* find_child() {
    for (size_t i = 0; i < world_.spawned.size(); ++i) {
      const auto& env = world_.spawned[i].env;
      if (env.count("GPUPACK_REPORT") && env.at("GPUPACK_REPORT") == path_) return world_.children[i];
    }
    return nullptr;
  }
  World& world_;
  std::string path_, go_;
  bool wrote_ready_ = false, go_seen_ = false;
  double next_request_ = 0;
};

// A GPU whose process list shows the scripted children that run and set gpu_memory.
class FakeGpu : public GpuBackend {
 public:
  explicit FakeGpu(World& w) : world_(w) {}
  std::string name() const override { return "fake"; }
  std::optional<std::string> driver_version() const override { return std::nullopt; }
  std::vector<GpuDeviceInfo> devices() override {
    GpuDeviceInfo d;
    d.uuid = "GPU-0";
    d.gpm = gpm;
    for (auto* c : world_.children) {
      if (!c->running() || !c->script().gpu_memory) continue;
      GpuProcessInfo p;
      p.pid = static_cast<unsigned>(c->pid());
      p.used_memory_bytes = c->script().gpu_memory;
      d.processes.push_back(p);
    }
    return {d};
  }
  std::vector<XidEvent> poll_xid_events() override { return {}; }
  std::optional<GpmActivity> gpm;  // what every read of GPU-0 shows

 private:
  World& world_;
};

}  // namespace gpupack::testing
