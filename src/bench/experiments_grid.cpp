// The co-location grid's cells: start the copies, wait for every ready line, release them together
// (GPUPACK_GO), measure one steady window from their client reports, stop them.
#include "bench/experiments_grid.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

#include "bench/child_group.hpp"
#include "bench/interrupt.hpp"
#include "measure/client_report.hpp"
#include "measure/cpu_span.hpp"
#include "measure/gpu_use_watch.hpp"
#include "measure/report_source.hpp"
#include "os/scratch_dir.hpp"

namespace gpupack::bench {

namespace {

using Clock = std::chrono::steady_clock;

// A copy failed or never got ready: the cell records the message, the grid goes on.
class CellFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A report file read while its program appends to it: each read feeds only the new bytes.
class ReportTail {
 public:
  ReportTail(const Filesystem& fs, std::string path) : source_(fs, std::move(path)) {}
  void read_new() {
    for (std::string chunk = source_.read_new(1 << 16); !chunk.empty(); chunk = source_.read_new(1 << 16)) reader_.feed(chunk);
  }
  const measure::ClientReport& report() const { return reader_.report(); }

 private:
  measure::FileReportSource source_;
  measure::ClientReportReader reader_;
};

struct Member {
  std::string name;  // "copy 2 of 4", "the neighbour": how messages name it
  ReportTail tail;
  std::optional<double> ready_seen_s;  // when gpupack first saw its ready line (cell clock)
  measure::CpuSpan cpu;                // its process tree's CPU time over the window
};

std::string stderr_tail(const ChildOutcome& o) {
  std::string text = o.err.empty() ? o.out : o.err;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() > 400) text = "..." + text.substr(text.size() - 400);
  return text.empty() ? "" : ": " + text;
}

class CellRun {
 public:
  CellRun(const BenchOptions& options, const GridCellRequest& request, Env env, measure::GpuUseWatch* gpu_use,
          const ProcReader* proc)
      : options_(options), request_(request), env_(env), gpu_use_(gpu_use), proc_(proc), dir_(env, "gpupack-grid") {}

  void run(measure::GridCell& cell) {
    start();
    if (!wait_ready()) return measure_wall_time(cell);
    env_.fs.write_file(path("go"), "");  // its existence releases every copy at once
    const double go = now_s();
    const double from = go + options_.settle_s;
    const double end = measure_until(go, from, from + options_.window_s);
    if (end <= from) {
      throw CellFailure(fmt::format("a copy ended {:.2f} s after the release, before the window began ({:.2f} s after it)",
                                    end - go, options_.settle_s));
    }
    group_->terminate_all(std::chrono::milliseconds(static_cast<long>(options_.stop_grace_s * 1000)));
    for (auto& m : members_) m.tail.read_new();
    cell.window_s = end - from;
    for (size_t i = 0; i < members_.size(); ++i) store(cell, i, figures(i, from, end));
    if (gpu_use_) {
      cell.gpu_sm_active = gpu_use_->window_sm_active();
      cell.gpu_dram_bw = gpu_use_->window_dram_bw();
      cell.gpu_sm_occupancy = gpu_use_->window_sm_occupancy();
    }
  }

 private:
  std::string path(const std::string& name) const { return dir_.path() + "/" + name; }
  bool is_neighbour(size_t i) const { return static_cast<int>(i) == request_.k; }

  void start() {
    std::vector<ChildSpec> specs;
    const int count = request_.k + (request_.neighbour_env ? 1 : 0);
    for (int i = 0; i < count; ++i) {
      const bool neighbour = i == request_.k;
      const ModeEnvironment& env = neighbour ? *request_.neighbour_env : request_.client_env;
      const std::string report = path(neighbour ? "neighbour.jsonl" : "copy-" + std::to_string(i) + ".jsonl");
      ChildSpec spec{{"/bin/sh", "-c", neighbour ? *options_.neighbour_cmd : *options_.client_cmd}, env.set, env.unset};
      spec.env[measure::kReportEnv] = report;
      spec.env[measure::kGoEnv] = path("go");
      // Which copy of how many this is (a script may tell its copies apart; fakes in tests use it).
      spec.env["GPUPACK_BENCH_CLIENT"] = neighbour ? "neighbour" : std::to_string(i);
      spec.env["GPUPACK_BENCH_CLIENTS"] = std::to_string(request_.k);
      specs.push_back(std::move(spec));
      // The neighbour by its command: a profile runs two (--neighbour-cmd, --compute-neighbour-cmd).
      members_.push_back({neighbour ? fmt::format("the neighbour ({})", *options_.neighbour_cmd)
                                    : fmt::format("copy {} of {} (GPUPACK_BENCH_CLIENT={})", i + 1, request_.k, i),
                          ReportTail(env_.fs, report), std::nullopt, {}});
    }
    group_ = std::make_unique<ChildGroup>(specs);
    t0_ = Clock::now();
    if (gpu_use_) gpu_use_->reset(members_.size());
  }

  double now_s() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

  void refresh() {
    group_->wait_for(std::chrono::milliseconds(10));
    for (auto& m : members_) {
      m.tail.read_new();
      if (!m.ready_seen_s && m.tail.report().ready_t) m.ready_seen_s = now_s();
    }
    watch_gpu_use();
  }

  // Which members hold GPU memory (their process trees), for their time on the GPU without start-up.
  void watch_gpu_use() {
    if (gpu_use_) gpu_use_->sample(now_s(), roots());
  }
  std::vector<int> roots() const {
    std::vector<int> out;
    for (size_t i = 0; i < members_.size(); ++i) out.push_back(group_->outcome(i).exited ? -1 : group_->pid(i));
    return out;
  }

  void fail_if_failed(size_t i, const char* when) const {
    const ChildOutcome& o = group_->outcome(i);
    if (o.exited && o.exit_code != 0) {
      throw CellFailure(fmt::format("{} exited with code {} {}{}", members_[i].name, o.exit_code, when, stderr_tail(o)));
    }
  }

  // Until every member wrote its ready line or exited by itself without writing any report. False when
  // none reported at all: then they all ran to their end and only their wall time is known.
  bool wait_ready() {
    for (;;) {
      refresh();
      bool settled = true, any_ready = false;
      for (size_t i = 0; i < members_.size(); ++i) {
        fail_if_failed(i, "before its ready line");
        const ChildOutcome& o = group_->outcome(i);
        if (members_[i].ready_seen_s) {
          any_ready = true;
        } else if (o.exited && members_[i].tail.report().any_line) {
          throw CellFailure(members_[i].name + " exited before it wrote a valid ready line" + malformed_note(i));
        } else if (!o.exited) {
          settled = false;
        }
      }
      if (settled) return any_ready;
      if (now_s() > options_.ready_timeout_s) throw CellFailure(not_ready_message());
    }
  }

  std::string malformed_note(size_t i) const {
    const auto& r = members_[i].tail.report();
    return r.malformed_lines ? fmt::format(" ({} malformed line(s); first: {})", r.malformed_lines, r.first_error.value_or("?")) : "";
  }

  std::string not_ready_message() const {
    std::string names;
    for (size_t i = 0; i < members_.size(); ++i) {
      if (!members_[i].ready_seen_s && !group_->outcome(i).exited) names += (names.empty() ? "" : ", ") + members_[i].name;
    }
    return fmt::format("{} wrote no ready line to its GPUPACK_REPORT file within {:g} s (--ready-timeout){}", names,
                       options_.ready_timeout_s, malformed_note(0));
  }

  // Until the window ends or a member ends by itself (the window is cut there: the load changed).
  double measure_until(double go, double from, double to) {
    for (;;) {
      refresh();
      for (size_t i = 0; i < members_.size(); ++i) fail_if_failed(i, fmt::format("{:.2f} s after the release", now_s() - go).c_str());
      for (size_t i = 0; i < members_.size(); ++i) {
        if (members_[i].ready_seen_s && group_->outcome(i).exited) return std::min(to, now_s());
      }
      if (now_s() >= from && gpu_use_ && !gpu_window_begun_) {
        gpu_window_begun_ = true;
        gpu_use_->begin_window(now_s(), roots());
      }
      if (now_s() >= from) sample_cpu(now_s() >= to);
      if (now_s() >= to) return to;
    }
  }

  // The members' CPU time from /proc: at the window's start, every kCpuEvery_s, and at its end (a walk of
  // each process tree per sample: too costly at the 10 ms the reports are read).
  void sample_cpu(bool last) {
    static constexpr double kCpuEvery_s = 0.25;
    const double now = now_s();
    if (!proc_ || (!last && cpu_sampled_s_ && now - *cpu_sampled_s_ < kCpuEvery_s)) return;
    cpu_sampled_s_ = now;
    for (size_t i = 0; i < members_.size(); ++i) {
      if (!group_->outcome(i).exited) members_[i].cpu.sample_tree(*proc_, group_->pid(i), now);
    }
  }

  // The window in the member's own clock: aligned where gpupack first saw its ready line.
  std::optional<measure::ReportFigures> figures(size_t i, double from, double to) const {
    const Member& m = members_[i];
    const auto& report = m.tail.report();
    if (!m.ready_seen_s || !report.ready_t) return std::nullopt;
    const double offset = *m.ready_seen_s - *report.ready_t;
    return measure::figures_in_window(report, from - offset, to - offset);
  }

  measure::CopyResult result(size_t i, const std::optional<measure::ReportFigures>& f) const {
    const ChildOutcome& o = group_->outcome(i);
    const auto& report = members_[i].tail.report();
    measure::CopyResult c;
    c.exit_code = o.exit_code;
    c.stopped = o.stopped;
    c.wall_s = o.seconds;
    c.reported = report.ready_t.has_value() || !report.requests.empty() || !report.summaries.empty();
    c.malformed_lines = report.malformed_lines;
    if (gpu_use_) {
      // Seconds since t0_ (just after the spawns) and from spawn to exit: the same start within milliseconds.
      c.first_gpu_s = gpu_use_->first_use_s(i);
      if (c.first_gpu_s) c.gpu_s = std::max(0.0, o.seconds - *c.first_gpu_s);
      c.gpu_memory_bytes = gpu_use_->peak_bytes(i);
    }
    c.host_cpu_cores = members_[i].cpu.cores();
    if (f) {
      c.requests = f->requests;
      c.req_per_s = f->req_per_s;
      c.p50_ms = f->p50_ms;
      c.p99_ms = f->p99_ms;
    }
    return c;
  }

  void store(measure::GridCell& cell, size_t i, const std::optional<measure::ReportFigures>& f) const {
    if (is_neighbour(i)) {
      cell.neighbour = result(i, f);
    } else {
      cell.copies.push_back(result(i, f));
    }
  }

  void measure_wall_time(measure::GridCell& cell) {
    for (auto& m : members_) m.tail.read_new();
    for (size_t i = 0; i < members_.size(); ++i) store(cell, i, std::nullopt);
  }

  const BenchOptions& options_;
  const GridCellRequest& request_;
  Env env_;
  measure::GpuUseWatch* gpu_use_;  // none: GPU use not watched (no GPU backend)
  const ProcReader* proc_;         // none: host CPU not watched
  std::optional<double> cpu_sampled_s_;
  bool gpu_window_begun_ = false;
  ScratchDir dir_;  // the cell's report and go files
  std::vector<Member> members_;
  std::unique_ptr<ChildGroup> group_;
  Clock::time_point t0_;
};

}  // namespace

namespace {
measure::GridCell empty_cell(const GridCellRequest& request) {
  measure::GridCell cell;
  cell.mode = request.mode;
  cell.k = request.k;
  cell.with_neighbour = request.neighbour_env.has_value();
  cell.neighbour_cap = request.neighbour_cap;
  return cell;
}
}  // namespace

std::string grid_cell_label(const GridCellRequest& request) { return measure::cell_label(empty_cell(request)); }

measure::GridCell run_grid_cell(const BenchOptions& options, const GridCellRequest& request, Env env,
                                measure::GpuUseWatch* gpu_use, const ProcReader* proc) {
  measure::GridCell cell = empty_cell(request);
  try {
    CellRun(options, request, env, gpu_use, proc).run(cell);
  } catch (const CellFailure& e) {
    cell.copies.clear();
    cell.neighbour.reset();
    cell.error = e.what();
  }
  return cell;
}

}  // namespace gpupack::bench
