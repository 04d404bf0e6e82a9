#include "measure/steady_profile.hpp"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/gpu_catalog.hpp"
#include "core/units.hpp"
#include "measure/client_report.hpp"
#include "measure/cpu_span.hpp"
#include "measure/gpu_use_watch.hpp"

namespace gpupack::measure {

namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string seconds_text(double s) {
  const double rounded = std::round(s * 10) / 10;
  std::string t = std::to_string(rounded);
  t.erase(t.find('.') + 2);
  return t + " s";
}

// Running means of the window's activity samples (each field separately: GPM may lack some).
struct ActivityMeans {
  double sum[5] = {0, 0, 0, 0, 0};
  int count[5] = {0, 0, 0, 0, 0};
  int samples = 0;
  void add(int i, const std::optional<double>& v) {
    if (v) {
      sum[i] += *v;
      ++count[i];
    }
  }
  std::optional<double> mean(int i) const { return count[i] ? std::optional<double>(sum[i] / count[i]) : std::nullopt; }
};

// The program's report, read as it grows, and the offset between its clock and ours (seconds since
// the program started): the smallest (seen - t) over all lines, as a line is seen at or after its t.
struct ReportTracker {
  ClientReportReader reader;
  std::optional<double> offset;
  std::size_t requests_seen = 0, summaries_seen = 0;
  std::optional<double> ready_at;  // our time at which the ready line was seen

  void poll(ReportSource& source, double now) {
    for (int chunk = 0; chunk < 64; ++chunk) {  // bounded per poll: a flood cannot stall sampling
      const std::string data = source.read_new(1 << 20);
      if (data.empty()) break;
      reader.feed(data);
    }
    const auto& r = reader.report();
    auto see = [&](double t) { offset = std::min(offset.value_or(now - t), now - t); };
    for (; requests_seen < r.requests.size(); ++requests_seen) see(r.requests[requests_seen].t);
    for (; summaries_seen < r.summaries.size(); ++summaries_seen) see(r.summaries[summaries_seen].t);
    if (r.ready_t && !ready_at) {
      see(*r.ready_t);
      ready_at = now;
    }
  }
};

std::uint64_t with_headroom(std::uint64_t peak, double headroom) {
  const double mib = std::ceil(static_cast<double>(peak) * (1 + headroom) / static_cast<double>(kMiB));
  return static_cast<std::uint64_t>(mib) * kMiB;
}

}  // namespace

ComputeDemand demand_from_activity(const ProfileActivity& a) {
  ComputeDemand d;  // share 1, no tolerances
  if (a.sm_active) {
    d.share = std::clamp(*a.sm_active, 0.01, 1.0);
    d.method = "gpm";
  } else if (a.utilization) {
    d.share = std::clamp(*a.utilization, 0.01, 1.0);
    d.method = "utilization";
  } else {
    d.method = "none";
  }
  return d;
}

SteadyRun measure_steady(const SteadyOptions& o, const SteadyDeps& deps) {
  SteadyRun run;
  auto& p = run.profile;
  p.name = o.name.empty() ? base_name(o.command.front()) : o.name;
  p.command = o.command;
  p.window.warmup_seconds = std::chrono::duration<double>(o.warmup).count();
  const double warmup = p.window.warmup_seconds, duration = std::chrono::duration<double>(o.duration).count();
  const double startup_timeout = std::chrono::duration<double>(o.startup_timeout).count();

  // Baseline: what other processes already hold, for the device-delta fallback.
  std::vector<std::uint64_t> baseline;
  for (const auto& d : deps.gpu.devices()) baseline.push_back(d.memory_used_bytes.value_or(0));

  ProcessSpec spec;
  spec.argv = o.command;
  spec.env = o.env;
  spec.env[kReportEnv] = o.report_path;
  const auto started = deps.clock.now();
  auto child = deps.runner.spawn(spec);
  auto seconds_now = [&] { return std::chrono::duration<double>(deps.clock.now() - started).count(); };

  ReportTracker report;
  std::optional<double> first_gpu, window_start, exited_at;
  std::optional<std::size_t> device_index;  // the GPU the program uses
  ActivityMeans means;
  CpuSpan cpu_span;
  // The host's CPU time at the window's first and last samples (seconds, times); host_samples counts them.
  int host_samples = 0;
  std::pair<double, HostCpuTimes> host_first{}, host_last{};
  std::vector<double> core_work_ms;  // the CPU probe's samples in the window
  std::optional<int> status;
  bool per_process = false;

  auto stop_child = [&] {
    child->signal(SIGTERM);
    const double asked = seconds_now();
    while (!(status = child->poll())) {
      if (seconds_now() - asked >= std::chrono::duration<double>(o.stop_grace).count()) {
        child->signal(SIGKILL);
        status = child->wait();
        break;
      }
      deps.clock.sleep_for(std::chrono::milliseconds(std::min<long>(50, o.interval.count())));
    }
  };

  while (true) {
    deps.clock.sleep_for(o.interval);
    const double now = seconds_now();
    status = child->poll();
    if (o.interrupted && o.interrupted()) {
      if (!status) stop_child();
      throw ProfileInterrupted();
    }
    report.poll(deps.report, now);

    // GPU memory of the program (its processes, else the devices' increase) and the GPU it uses.
    const auto tree_vec = process_tree(deps.proc, child->pid());
    const auto devices = deps.gpu.devices();
    const TreeGpuUse use = tree_gpu_use(devices, std::set<unsigned>(tree_vec.begin(), tree_vec.end()), baseline);
    if (!device_index) device_index = use.device;
    per_process = per_process || use.listed;
    p.memory.peak_bytes = std::max(p.memory.peak_bytes, use.bytes);
    if (!first_gpu && use.uses_gpu()) first_gpu = now;

    // The window: the ready line starts it (and restarts one begun by the warm-up rule), else first GPU + warm-up.
    std::optional<double> start;
    if (report.ready_at && (first_gpu || !o.require_gpu)) {
      start = std::max(*report.ready_at, first_gpu.value_or(0));
      p.window.start = "ready-line";
    } else if (first_gpu && !report.ready_at) {
      start = *first_gpu + warmup;
      p.window.start = "warmup";
    }
    if (start && window_start != start) {  // (re)starting: forget samples taken before
      window_start = start;
      means = {};
      cpu_span = {};
      host_samples = 0;
      core_work_ms.clear();
    }

    if (!status && window_start && now >= *window_start) {
      ++means.samples;
      if (device_index && *device_index < devices.size()) {
        const auto& d = devices[*device_index];
        if (d.gpm) {
          means.add(0, d.gpm->sm_active);
          means.add(1, d.gpm->sm_occupancy);
          means.add(2, d.gpm->tensor_active);
          means.add(3, d.gpm->dram_bw);
        }
        means.add(4, d.utilization_gpu);
      }
      bool any_cpu = false;
      for (int pid : tree_vec) {
        if (const auto c = deps.proc.cpu_seconds(pid)) {
          cpu_span.add(pid, *c);
          any_cpu = true;
        }
      }
      if (any_cpu) cpu_span.sampled(now);
      if (const auto h = deps.proc.host_cpu_times()) {
        host_last = {now, *h};
        if (host_samples++ == 0) host_first = host_last;
      }
      if (deps.cpu_probe) {
        if (const auto ms = deps.cpu_probe->time_next_core()) core_work_ms.push_back(*ms);
      }
    }

    if (status) {
      exited_at = now;
      break;
    }
    if (window_start && now >= *window_start + duration) {
      stop_child();
      run.stopped_by_gpupack = true;
      break;
    }
    if (!window_start && now >= startup_timeout) {
      stop_child();
      throw ProfileError(std::string(first_gpu ? "its measurement window had not begun"
                                               : (o.require_gpu ? "it had not used the GPU" : "it had neither used the GPU nor said ready")) +
                         " after " + seconds_text(startup_timeout) + " (--startup-timeout); it was stopped");
    }
  }
  run.exit_code = *status;
  report.poll(deps.report, seconds_now());  // the last lines written before it ended

  if (!first_gpu && (o.require_gpu || !report.ready_at)) {
    throw ProfileError("the program never used the GPU (no GPU memory seen for its processes or on any device) and exited with " +
                       std::to_string(run.exit_code) + " after " + seconds_text(*exited_at));
  }
  if (!window_start || means.samples == 0) {
    std::string when = first_gpu ? seconds_text(*first_gpu) + " after start, its first GPU use, " : "";
    throw ProfileError("the program exited with " + std::to_string(run.exit_code) + " after " + seconds_text(*exited_at) +
                       ", before the measurement window began (" +
                       (report.ready_at || !first_gpu ? std::string("at its ready line")
                                                       : "at " + seconds_text(*first_gpu + warmup) + ": first GPU use + --warmup") +
                       "); let it run longer or lower --warmup");
  }
  run.window_start_seconds = *window_start;
  const double window_end = exited_at ? *exited_at : *window_start + duration;
  p.window.seconds = std::max(0.0, std::min(window_end, *window_start + duration) - *window_start);
  p.window.complete = !exited_at;
  p.window.first_gpu_seconds = first_gpu;

  if (device_index) {
    const auto devices = deps.gpu.devices();
    if (*device_index < devices.size()) {
      const auto& d = devices[*device_index];
      if (std::string model = deps.catalog.model_name(d.name); !model.empty()) p.device.model = std::move(model);
      p.device.name = d.name;
      p.device.uuid = d.uuid;
    }
  }
  p.memory.source = per_process ? "processes" : "device-delta";
  p.memory.with_headroom_bytes = with_headroom(p.memory.peak_bytes, o.headroom);

  auto& a = p.activity;
  a.samples = means.samples;
  a.sm_active = means.mean(0);
  a.sm_occupancy = means.mean(1);
  a.tensor_active = means.mean(2);
  a.dram_bw = means.mean(3);
  a.utilization = means.mean(4);
  a.source = a.sm_active ? "gpm" : (a.utilization ? "nvml-utilization" : "none");
  p.compute_demand = demand_from_activity(a);

  p.host_cpu_cores = cpu_span.cores();
  if (host_samples > 1 && host_last.first > host_first.first) {
    const HostCpuTimes& from = host_first.second;
    const HostCpuTimes& to = host_last.second;
    const double total = (to.busy - from.busy) + (to.idle - from.idle) + (to.steal - from.steal);
    p.host_busy_cores = std::max(0.0, (to.busy - from.busy) / (host_last.first - host_first.first));
    if (total > 0) p.host_steal_share = std::clamp((to.steal - from.steal) / total, 0.0, 1.0);
  }

  p.host_core_work = summarize_core_work(core_work_ms);

  const auto& r = report.reader.report();
  p.report = {r.any_line, r.malformed_lines, r.first_error};
  if (report.offset) {
    if (const auto f = figures_in_window(r, *window_start - *report.offset, *window_start + p.window.seconds - *report.offset)) {
      p.requests = ProfileRequests{f->req_per_s, f->p50_ms, f->p99_ms, f->requests, f->p50_second_low_ms,
                                   f->p50_second_high_ms};
    }
  }
  return run;
}

}  // namespace gpupack::measure
