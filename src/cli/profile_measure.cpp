#include "cli/profile_measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>

#include "bench/experiments_grid.hpp"
#include "bench/mps_session.hpp"
#include "bench/options.hpp"
#include "bench/worker.hpp"
#include "bench/workers.hpp"
#include "cli/node_support.hpp"
#include "core/errors.hpp"
#include "measure/baseline_runs.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/gpu_use_watch.hpp"
#include "measure/sm_share_sweep.hpp"
#include "os/cpu_work_probe.hpp"
#include "os/host_cpus.hpp"
#include "os/self_executable.hpp"
#include "render/quoting.hpp"

namespace gpupack {

namespace {

using namespace measure;

std::chrono::milliseconds whole_ms(double seconds) { return std::chrono::milliseconds(std::lround(seconds * 1000)); }

// One shell word: as written when no shell treats any of its characters specially, else quoted.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%") == std::string::npos;
  return plain ? word : shell_quote(word);
}

// The grid's copies run through /bin/sh -c (bench's driver); exec keeps the program the copy's own process.
std::string shell_command(const std::vector<std::string>& argv) {
  std::string out = "exec";
  for (const auto& word : argv) out += " " + shell_word(word);
  return out;
}

SteadyOptions steady_options(const ProfileArgs& a, const std::string& scratch) {
  SteadyOptions o;
  o.command = a.command;
  o.name = a.name;
  o.interval = whole_ms(a.interval);
  o.warmup = whole_ms(a.warmup);
  o.duration = whole_ms(a.duration);
  o.startup_timeout = whole_ms(a.startup_timeout);
  o.headroom = a.headroom;
  o.report_path = scratch + "/report.jsonl";
  o.interrupted = [] { return bench::interrupt_requested(); };
  return o;
}

// The copy counts of --grid, with K = 1 always: the curves are relative to one copy measured the same way
// (released with GPUPACK_GO, the same window), and the planner's launch-path coefficient needs it.
std::vector<int> grid_ks(const ProfileArgs& a) {
  std::vector<int> ks = bench::parse_ks("1," + a.grid, "--grid");
  return ks;
}

// The co-location cells (measure/colocation_grid.hpp), run by bench's driver: copies started together,
// released with GPUPACK_GO, one window from their client reports, their process trees' host CPU.
class ProfileGrid {
 public:
  ProfileGrid(const ProfileArgs& a, const std::string& neighbour_cmd, GpuBackend& gpu, Env env, const ProcReader& proc)
      : env_(env), proc_(proc), watch_(gpu, proc) {
    options_.client_cmd = shell_command(a.command);
    if (!neighbour_cmd.empty()) options_.neighbour_cmd = neighbour_cmd;
    options_.window_s = a.duration;
    options_.settle_s = std::min(1.0, a.duration / 4);  // first requests after the release contend: not counted
    options_.ready_timeout_s = a.startup_timeout;
    grid_.command = *options_.client_cmd;
    grid_.neighbour_command = neighbour_cmd;
    grid_.window_s = a.duration;
    const HostCpus cpus = host_cpus();
    grid_.node_cores = cpus.online;
    grid_.usable_cores = cpus.usable;
  }

  void cell(const bench::GridCellRequest& request) {
    std::cerr << "gpupack profile: co-location, " << bench::grid_cell_label(request) << "\n";
    GridCell c = bench::run_grid_cell(options_, request, env_, &watch_, &proc_);
    if (!c.error.empty()) std::cerr << "gpupack profile: warning: " << cell_label(c) << " failed: " << c.error << "\n";
    grid_.cells.push_back(std::move(c));
  }

  std::optional<nlohmann::json> json() const {
    if (grid_.cells.empty()) return std::nullopt;
    return nlohmann::json(to_json(grid_));
  }

 private:
  Env env_;
  const ProcReader& proc_;
  GpuUseWatch watch_;
  bench::BenchOptions options_;
  ColocationGrid grid_;
};

// The sweep's reference runs (alone under MPS at 100%) as the MPS baseline.
std::optional<Baseline> mps_baseline(const std::vector<SmSharePoint>& curve, double spread_limit) {
  if (curve.empty() || curve.front().pct != 100 || curve.front().runs.empty()) return std::nullopt;
  std::vector<BaselineRun> runs;
  for (const auto& r : curve.front().runs) runs.push_back({r.req_per_s, r.p50_ms, r.p99_ms, std::nullopt});
  return summarize_baseline("mps-100", std::move(runs), spread_limit);
}

const char* first_mps_option(const ProfileArgs& a) {
  return !a.sweep.empty()                   ? "--sweep"
         : !a.grid.empty()                  ? "--grid"
         : !a.neighbour_cmd.empty()         ? "--neighbour-cmd"
         : !a.compute_neighbour_cmd.empty() ? "--compute-neighbour-cmd"
                                            : "--pressure-cmd";
}

// The GPU's free memory now (total less used, the program not running), from the backend's device list: the
// profiled device's, else the first; none where the backend does not say.
std::optional<std::uint64_t> free_gpu_memory(GpuBackend& gpu, const std::string& uuid) {
  const auto devices = gpu.devices();
  for (const auto& d : devices) {
    if (!uuid.empty() && d.uuid != uuid && devices.size() > 1) continue;
    if (!d.memory_total_bytes) return std::nullopt;
    const std::uint64_t used = d.memory_used_bytes.value_or(0);
    return *d.memory_total_bytes > used ? *d.memory_total_bytes - used : 0;
  }
  return std::nullopt;
}

}  // namespace

std::string standard_neighbour_command(const std::string& self_exe, const std::string& backend, bool built_with_cuda,
                                       std::uint64_t peak_bytes, std::optional<std::uint64_t> free_bytes,
                                       std::string& why_not) {
  if (backend != "nvml") {
    why_not = "the GPU backend is " + backend + ", not NVML";
  } else if (!built_with_cuda) {
    why_not = "this gpupack was built without CUDA";
  } else if (free_bytes && *free_bytes < peak_bytes + kStandardNeighbourBytes) {
    why_not = "it needs 2 GiB of GPU memory free beside the program's peak";
  } else {
    why_not.clear();
    return "exec " + shell_word(self_exe) + " neighbour";
  }
  return "";
}

int default_grid_k(std::uint64_t peak_bytes, std::optional<std::uint64_t> free_bytes, int usable_cores) {
  int k = std::min(4, usable_cores / 2);
  if (free_bytes && peak_bytes > 0) {
    k = static_cast<int>(std::min<double>(k, std::floor(0.9 * static_cast<double>(*free_bytes) / static_cast<double>(peak_bytes))));
  }
  return k >= 2 ? k : 0;
}

std::vector<GridCellKey> short_grid_cells(const ProfileArgs& a, int k) {
  std::vector<GridCellKey> out;
  if (!a.short_grid() || k < 2) return out;
  if (!a.no_grid_timeslicing) out = {{"timeslicing", 1}, {"timeslicing", k}};
  out.push_back({"mps", 1});
  out.push_back({"mps", k});
  return out;
}

void check_profile_args(const ProfileArgs& a) {
  if (!a.sweep.empty()) parse_sweep_percentages(a.sweep);
  if (!a.grid.empty()) grid_ks(a);
  if (a.no_grid && !a.grid.empty()) {
    throw InputError("--no-grid: leaves out the short grid --sweep runs; it cannot go with --grid " + a.grid + " (give one)");
  }
  if (a.no_grid_timeslicing && a.grid_timeslicing) {
    throw InputError("--no-grid-timeslicing: leaves the time-slicing cells out of the short grid --sweep runs; it cannot go with "
                     "--grid-timeslicing (give one)");
  }
  if (a.grid_timeslicing && a.grid.empty()) {
    throw InputError("--grid-timeslicing: runs the --grid copy counts without MPS too; give --grid K,K,... (e.g. --grid 2,4,8)");
  }
  if (a.no_neighbour && !a.neighbour_cmd.empty()) {
    throw InputError("--no-neighbour: leaves out the standard neighbour --sweep runs; it cannot go with --neighbour-cmd (give one)");
  }
  if (a.no_pressure && !a.pressure_cmd.empty()) {
    throw InputError("--no-pressure: leaves out the launch-bound reporter --sweep runs; it cannot go with --pressure-cmd (give one)");
  }
  if (a.neighbour_caps_given && a.neighbour_cmd.empty() && !a.standard_neighbour()) {
    throw InputError("--neighbour-caps: caps the neighbour of --neighbour-cmd \"PROGRAM\" or the standard neighbour --sweep runs; give one of them");
  }
  parse_sweep_percentages(a.neighbour_caps, "--neighbour-caps");
  if (!a.colocation.empty() && (!a.grid.empty() || !a.neighbour_cmd.empty())) {
    throw InputError("--colocation " + a.colocation + ": the profile's co-location grid comes from --grid/--neighbour-cmd here; give one or the other");
  }
}

WorkloadProfile measure_program(const ProfileArgs& a, GpuBackend& gpu, Env env, const GpuCatalog& catalog,
                                const std::string& scratch) {
  LocalServices os(env);
  const SteadyOptions o = steady_options(a, scratch);
  auto open = [&os](const std::string& path) { return std::make_unique<FileReportSource>(os.fs, path); };
  auto baseline_progress = [](int run, int of) {
    if (of > 1) std::cerr << "gpupack profile: baseline, alone, run " << run << " of " << of << "\n";
  };
  // The host's cores timed beside each run alone: what tells a host whose cores change speed (a VM's) apart.
  PinnedCpuWorkProbe cpu_probe;
  WorkloadProfile p = measure_baseline(o, a.baseline_runs, a.baseline_spread_limit,
                                       {{os.runner, gpu, os.proc, os.clock, catalog, open}, baseline_progress, &cpu_probe});
  if (!a.needs_mps()) return p;
  if (!p.requests || !p.requests->p99_ms) {
    throw ProfileError(std::string(first_mps_option(a)) + " compares the program's own p99 and req/s, but it reported no request "
                       "latencies in its window: make it write its client report (docs/client-report.md)");
  }

  // The GPU's free memory with the program stopped, read once: what the short grid's copies and the standard
  // neighbour must fit in.
  const auto free = free_gpu_memory(gpu, p.device.uuid);
  std::string neighbour = a.neighbour_cmd, reporter = a.pressure_cmd;
  if (a.standard_neighbour() || a.standard_reporter()) {
    std::string why_not;
    const std::string standard = standard_neighbour_command(self_executable(), gpu.name(), bench::built_with_cuda(),
                                                            p.memory.peak_bytes, free, why_not);
    if (a.standard_neighbour()) neighbour = standard;
    if (a.standard_reporter() && !standard.empty()) reporter = standard + " --kind reporter";
    if (standard.empty()) {
      std::cerr << "gpupack profile: no standard neighbour or reporter: " << why_not << " (--neighbour-cmd, --pressure-cmd run yours)\n";
    }
  }
  // The short grid's copies (with --sweep and no --grid), from the host's cores and the free memory.
  int short_k = 0;
  if (a.short_grid()) {
    const HostCpus cpus = host_cpus();
    const int usable = cpus.usable.value_or(cpus.online.value_or(0));
    short_k = default_grid_k(p.memory.peak_bytes, free, usable);
    if (short_k < 2) {
      std::cerr << "gpupack profile: no short co-location grid: 2 copies need " << (usable < 4 ? "4 usable host cores" : "twice its peak memory free on the GPU")
                << " (--grid K,K runs one anyway)\n";
    }
  }
  const std::vector<GridCellKey> short_cells = short_grid_cells(a, short_k);
  ProfileGrid grid(a, neighbour, gpu, env, os.proc);
  // Before the daemon starts: time-slicing without any MPS server on the GPU.
  if (a.grid_timeslicing) {
    for (int k : grid_ks(a)) grid.cell({"timeslicing", k, bench::plain_environment(), std::nullopt, std::nullopt});
  }
  for (const GridCellKey& c : short_cells) {
    if (c.mode == "timeslicing") grid.cell({"timeslicing", c.k, bench::plain_environment(), std::nullopt, std::nullopt});
  }

  bench::MpsSessionOptions mps_options;
  mps_options.control_binary = a.mps_control;
  mps_options.gpu_uuid = p.device.uuid;
  mps_options.temp_base = scratch;
  std::string why_not;
  auto session = bench::MpsSession::start(mps_options, env, why_not);  // quits in its destructor, on errors and Ctrl-C too
  if (!session) throw ProfileError(std::string(first_mps_option(a)) + " needs a private MPS daemon, which did not start: " + why_not);

  if (!a.sweep.empty()) {
    SweepOptions s;
    s.percentages = parse_sweep_percentages(a.sweep);
    s.repeat = std::max(a.repeat, a.baseline_runs);  // the reference is the MPS baseline: as many runs
    s.repeat_all = a.repeat_all;
    s.report_dir = scratch;
    s.mps_env = session->client_environment();
    auto progress = [](int pct, int run) {
      std::cerr << "gpupack profile: sweep, alone under MPS at " << pct << "% threads" << (run > 1 ? ", run " + std::to_string(run) : "") << "\n";
    };
    p.sm_share_curve = run_sweep(o, s, {os.runner, gpu, os.proc, os.clock, catalog, open, progress});
    p.compute_demand = judge_sweep(p.sm_share_curve, {a.tolerance, a.p99_tolerance});
    p.mps_baseline = mps_baseline(p.sm_share_curve, a.baseline_spread_limit);
  }
  const bench::ModeEnvironment mps = bench::mps_environment(session->client_environment());
  if (!a.grid.empty()) {
    for (int k : grid_ks(a)) grid.cell({"mps", k, mps, std::nullopt, std::nullopt});
  } else {
    for (const GridCellKey& c : short_cells) {
      if (c.mode == "mps") grid.cell({"mps", c.k, mps, std::nullopt, std::nullopt});
    }
  }
  if (!neighbour.empty()) {
    grid.cell({"mps", 0, mps, mps, std::nullopt});  // the neighbour alone: what its throughput is compared with
    for (int cap : parse_sweep_percentages(a.neighbour_caps, "--neighbour-caps")) {
      const auto capped = bench::mps_environment(session->client_environment(), {{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", std::to_string(cap)}});
      grid.cell({"mps", 1, mps, capped, cap});
    }
  }
  // Beside a compute-bound neighbour of the user's, uncapped, after that neighbour alone (its SM activity): a
  // diagnostic the planner does not read. Beside `gpupack neighbour --kind compute --iters 40000` (FMA blocks
  // that hold every SM's threads 3.3 ms) mobilenet-v3-b8 kept 8 of its 205 req/s, beside the triad at 100% 104
  // (results/run63-compute-neighbour-h200); at 0.38 ms kernels bert-base-b4 kept 46 of 245, beside the triad
  // 217 (run65): how long a neighbour's blocks hold SMs and how much of each they take set the wait of a
  // launch-bound program's kernels, and SM activity does not measure either.
  if (!a.compute_neighbour_cmd.empty()) {
    ProfileGrid compute(a, a.compute_neighbour_cmd, gpu, env, os.proc);
    compute.cell({"mps", 0, mps, mps, std::nullopt});
    compute.cell({"mps", 1, mps, mps, std::nullopt});
    if (auto j = compute.json()) p.compute_neighbour = std::move(*j);
  }
  // The launch-bound reporter alone, then beside one copy uncapped: what this program's blocks cost the short
  // kernels of a launch-bound neighbour (measure/launch_pressure.hpp; results/run76-neighbour-pressure-h200).
  if (!reporter.empty()) {
    ProfileGrid pressure(a, reporter, gpu, env, os.proc);
    pressure.cell({"mps", 0, mps, mps, std::nullopt});
    pressure.cell({"mps", 1, mps, mps, std::nullopt});
    if (auto j = pressure.json()) p.launch_pressure = std::move(*j);
  }
  if (!session->quit()) std::cerr << "gpupack profile: warning: the private MPS daemon did not quit in time\n";
  if (auto j = grid.json()) p.colocation = std::move(*j);
  return p;
}

}  // namespace gpupack
