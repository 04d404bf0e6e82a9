#include "verify/verify_session.hpp"

#include <signal.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <set>

#include "mps/mps_daemon.hpp"

namespace gpupack::verify {

namespace {

std::chrono::milliseconds ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000 + 0.5));
}

struct Member {
  const ReplicaSetup* setup = nullptr;
  size_t slice = 0;
  std::string report_path, log_path;
  std::unique_ptr<ChildProcess> child;
  std::unique_ptr<measure::ReportSource> source;
  measure::ClientReportReader reader;
  std::optional<double> ready_seen_s;  // session time when gpupack first saw its ready line
  std::optional<int> exit_code;
  std::optional<double> exited_s;
  std::optional<std::uint64_t> peak_memory;
  bool gpu_seen = false;
};

// Everything one run started; the destructor stops what is still running, so no way out of run_session
// (return, VerifyFailure, VerifyInterrupted, any other exception) leaves a process or daemon behind.
class Running {
 public:
  Running(const SessionOptions& options, const SessionDeps& deps) : options_(options), deps_(deps) {
    t0_ = deps_.clock.now();
  }
  ~Running() { stop_all(); }
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;

  double now_s() const { return std::chrono::duration<double>(deps_.clock.now() - t0_).count(); }

  // A private daemon on the slice's device with the rendered defaults; returns the client environment.
  std::map<std::string, std::string> start_daemon(const SliceSetup& slice, size_t index) {
    MpsDaemonOptions o;
    const std::string dir = options_.work_dir + "/mps-" + std::to_string(index);
    o.paths = {dir + "/pipe", dir + "/log"};
    o.binary = options_.mps_control;
    o.visible_devices = {slice.device_uuid};
    o.temporary = true;
    daemons_.push_back(std::make_unique<MpsDaemon>(deps_.runner, deps_.fs, deps_.clock, o));
    MpsDaemon& d = *daemons_.back();
    d.start();
    d.control().set_default_active_thread_percentage(slice.mps->active_thread_percentage);
    d.control().set_default_device_pinned_mem_limit(0, slice.mps->pinned_mem_limit_text());
    return d.control().environment();
  }

  void start_replica(const ReplicaSetup& r, size_t slice, const std::map<std::string, std::string>& daemon_env) {
    Member m;
    m.setup = &r;
    m.slice = slice;
    const std::string base = options_.work_dir + "/" + std::to_string(slice) + "-" + r.name();
    m.report_path = base + ".jsonl";
    m.log_path = base + ".log";
    ProcessSpec spec;
    // The program's own output goes to a log file: verify's stdout is its table or JSON.
    spec.argv = {"/bin/sh", "-c", "exec >>\"$GPUPACK_VERIFY_LOG\" 2>&1\n" + r.command};
    spec.env = r.env;
    for (const auto& [k, v] : daemon_env) spec.env[k] = v;
    spec.env["GPUPACK_VERIFY_LOG"] = m.log_path;
    spec.env["GPUPACK_VERIFY_REPLICA"] = r.name();
    if (r.reports) {
      spec.env[measure::kReportEnv] = m.report_path;
      spec.env[measure::kGoEnv] = go_path();
      m.source = deps_.open_report(m.report_path);
    }
    m.child = deps_.runner.spawn(spec);
    members_.push_back(std::move(m));
  }

  std::string go_path() const { return options_.work_dir + "/go"; }

  // Reads new report bytes and reaps children that ended.
  void refresh() {
    for (auto& m : members_) {
      if (m.source) {
        for (;;) {
          const std::string chunk = m.source->read_new(1 << 20);
          if (chunk.empty()) break;
          m.reader.feed(chunk);
        }
        if (!m.ready_seen_s && m.reader.report().ready_t) m.ready_seen_s = now_s();
      }
      if (!m.exit_code && m.child) {
        if (const auto code = m.child->poll()) {
          m.exit_code = *code;
          m.exited_s = now_s();
        }
      }
    }
  }

  void check_interrupt() {
    if (options_.interrupted && options_.interrupted()) {
      stop_all();
      throw VerifyInterrupted();
    }
  }

  void pause() { deps_.clock.sleep_for(ms(options_.poll_s)); }

  std::string log_tail(const Member& m) const {
    std::string text = deps_.fs.read_file(m.log_path).value_or("");
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (text.size() > 300) text = "..." + text.substr(text.size() - 300);
    return text;
  }

  [[noreturn]] void fail(const std::string& message) {
    stop_all();
    throw VerifyFailure(message);
  }

  void wait_ready() {
    for (;;) {
      refresh();
      check_interrupt();
      std::vector<std::string> waiting;
      for (const auto& m : members_) {
        if (!m.setup->reports || m.ready_seen_s) continue;
        if (m.exit_code) {
          const std::string tail = log_tail(m);
          fail(fmt::format("replica {} exited with code {} before it wrote its ready line to GPUPACK_REPORT{}{}",
                           m.setup->name(), *m.exit_code, tail.empty() ? "" : ": ", tail));
        }
        waiting.push_back(m.setup->name());
      }
      if (waiting.empty()) return;
      if (now_s() > options_.ready_timeout_s) {
        fail(fmt::format("replica(s) {} wrote no ready line to GPUPACK_REPORT within {:.0f} s (--ready-timeout); "
                         "a program that does not speak the client report needs --plain WORKLOAD",
                         fmt::join(waiting, ", "), options_.ready_timeout_s));
      }
      pause();
    }
  }

  // The pids of a replica: its shell and everything below it.
  std::set<int> tree(int pid) const {
    std::set<int> pids{pid};
    std::vector<int> todo{pid};
    while (!todo.empty()) {
      const int p = todo.back();
      todo.pop_back();
      for (int c : deps_.proc.children(p)) {
        if (pids.insert(c).second) todo.push_back(c);
      }
    }
    return pids;
  }

  // `slices`: those of this run, parallel to meters_.
  void sample_gpu(const std::vector<SliceSetup>& slices) {
    if (!deps_.gpu) return;
    const auto devices = deps_.gpu->devices();
    // Each read's GPM covers the time since the previous read: the first read of a run only starts it.
    const double read_s = now_s();
    for (size_t i = 0; i < meters_.size() && last_read_s_; ++i) {
      if (const auto g = gpm_of(devices, slices[i].device_uuid)) meters_[i].add(*g, *last_read_s_, read_s);
    }
    last_read_s_ = read_s;
    for (auto& m : members_) {
      if (m.exit_code || !m.child) continue;
      const std::set<int> pids = tree(m.child->pid());
      std::uint64_t used = 0;
      bool seen = false;
      for (const auto& d : devices) {
        for (const auto& p : d.processes) {
          if (!pids.count(static_cast<int>(p.pid))) continue;
          seen = true;
          used += p.used_memory_bytes.value_or(0);
        }
      }
      if (seen) {
        m.gpu_seen = true;
        m.peak_memory = std::max(m.peak_memory.value_or(0), used);
      }
    }
  }

  // Runs until the window ends; returns the window [from, to] in session time.
  std::pair<double, double> release_and_measure(const std::vector<SliceSetup>& slices) {
    deps_.fs.write_file(go_path(), "go\n");
    const double go = now_s();
    const double from = go + options_.warmup_s, to = from + options_.duration_s;
    meters_.assign(slices.size(), WindowActivityMeter(from, to));
    double next_sample = go;
    while (now_s() < to) {
      refresh();
      check_interrupt();
      if (now_s() >= next_sample) {
        sample_gpu(slices);
        next_sample = now_s() + options_.sample_s;
      }
      pause();
    }
    drain(to);
    return {from, to};
  }

  // A request in flight at the window's end is written a moment later; a busy program may also write its
  // lines late. Read until every reporting replica still running wrote a line from past the window's end
  // (in its own clock), for at most the stop grace.
  void drain(double to) {
    const double until = now_s() + std::max(options_.stop_grace_s, 0.5);
    for (;;) {
      refresh();
      bool behind = false;
      for (const auto& m : members_) {
        if (!m.ready_seen_s || m.exit_code) continue;
        const auto& report = m.reader.report();
        const double end = to + (*report.ready_t - *m.ready_seen_s);
        const double last = std::max(report.requests.empty() ? 0.0 : report.requests.back().t,
                                     report.summaries.empty() ? 0.0 : report.summaries.back().t);
        behind = behind || last < end;
      }
      if (!behind || now_s() >= until) return;
      check_interrupt();
      pause();
    }
  }

  void stop_all() {
    std::vector<int> roots;
    for (auto& m : members_) {
      if (m.child && !m.exit_code && !m.child->poll()) roots.push_back(m.child->pid());
    }
    if (!roots.empty()) {
      signal_trees(roots, SIGTERM);
      const double deadline = now_s() + options_.stop_grace_s;
      while (now_s() < deadline && any_running()) deps_.clock.sleep_for(ms(options_.poll_s));
      if (any_running()) signal_trees(roots, SIGKILL);
      for (auto& m : members_) {
        if (m.child && !m.child->poll()) m.child->wait();
      }
    }
    for (auto& d : daemons_) {
      // The servers outlive the control daemon for a moment after quit: wait for them too, so that the
      // next run does not find a half-dead server still holding the GPU.
      std::vector<int> servers;
      try {
        servers = d->control().server_list();
      } catch (const std::exception&) {
      }
      try {
        d->quit();
      } catch (const std::exception&) {
        // Best effort on the way out: the daemon is in a private directory nobody else uses.
      }
      const double deadline = now_s() + 10;
      for (int pid : servers) {
        while (deps_.runner.is_alive(pid) && now_s() < deadline) deps_.clock.sleep_for(ms(options_.poll_s));
      }
    }
    daemons_.clear();
  }

  std::vector<Member>& members() { return members_; }

  std::vector<std::optional<WindowActivity>> activity() const {
    std::vector<std::optional<WindowActivity>> out;
    for (const auto& m : meters_) out.push_back(m.result());
    return out;
  }

 private:
  bool any_running() {
    for (auto& m : members_) {
      if (m.child && !m.exit_code && !m.child->poll()) return true;
    }
    return false;
  }

  void signal_trees(const std::vector<int>& roots, int sig) {
    for (int root : roots) {
      for (int pid : tree(root)) {
        if (pid != root) deps_.runner.send_signal(pid, sig);
      }
    }
    for (auto& m : members_) {
      if (m.child && std::find(roots.begin(), roots.end(), m.child->pid()) != roots.end()) m.child->signal(sig);
    }
  }

  const SessionOptions& options_;
  const SessionDeps& deps_;
  Clock::time_point t0_;
  std::vector<std::unique_ptr<MpsDaemon>> daemons_;
  std::vector<Member> members_;
  std::vector<WindowActivityMeter> meters_;  // per slice, from the release on
  std::optional<double> last_read_s_;
};

}  // namespace

SessionRun run_session(const std::vector<SliceSetup>& slices, const SessionOptions& options, const SessionDeps& deps) {
  Running running(options, deps);
  for (size_t i = 0; i < slices.size(); ++i) {
    std::map<std::string, std::string> daemon_env;
    if (slices[i].mps) {
      try {
        daemon_env = running.start_daemon(slices[i], i);
      } catch (const std::exception& e) {
        running.fail(fmt::format("slice {}: the MPS daemon did not start: {}", slices[i].name(), e.what()));
      }
    }
    for (const auto& r : slices[i].replicas) running.start_replica(r, i, daemon_env);
  }
  running.wait_ready();
  const auto [from, to] = running.release_and_measure(slices);

  SessionRun out;
  out.window_s = to - from;
  out.slices.resize(slices.size());
  out.activity = running.activity();
  // Each report's clock is mapped to gpupack's at the moment its ready line was seen, which is late by up to
  // a poll: fine for a window of seconds, too coarse to line up one client's millisecond stalls with
  // another's. Programs on one machine mostly share a clock (time.monotonic() is CLOCK_MONOTONIC); those
  // whose offsets agree within a second get the median offset for their request spans, so that their
  // requests keep their exact order; a program on another clock gets no spans.
  std::vector<double> offsets;
  for (auto& m : running.members()) {
    const auto& report = m.reader.report();
    if (m.ready_seen_s && report.ready_t) offsets.push_back(*report.ready_t - *m.ready_seen_s);
  }
  std::sort(offsets.begin(), offsets.end());
  const double shared_offset = offsets.empty() ? 0.0 : offsets[offsets.size() / 2];
  for (auto& m : running.members()) {
    ReplicaRun r;
    r.name = m.setup->name();
    r.exit_code = m.exit_code;
    r.ended_early = m.exited_s.has_value() && *m.exited_s < to;
    const auto& report = m.reader.report();
    r.malformed_lines = report.malformed_lines;
    r.reported = m.ready_seen_s.has_value();
    if (r.reported) {
      // The window in the program's own clock, aligned where gpupack first saw its ready line.
      const double offset = *report.ready_t - *m.ready_seen_s;
      r.figures = measure::figures_in_window(report, from + offset, to + offset);
      if (std::fabs(offset - shared_offset) < 1.0) {  // offsets holds this one: not empty
        for (const auto& q : report.requests) {
          if (q.t >= from + shared_offset && q.t <= to + shared_offset) {  // one window for all on one clock
            r.requests.push_back({q.t - shared_offset - q.latency_ms / 1000.0, q.t - shared_offset});
          }
        }
      }
    }
    r.peak_memory_bytes = m.peak_memory;
    r.gpu_seen = m.gpu_seen;
    if (m.exit_code) r.log_tail = running.log_tail(m);
    out.slices[m.slice].push_back(std::move(r));
  }
  running.stop_all();
  return out;
}

}  // namespace gpupack::verify
