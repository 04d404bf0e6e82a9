// `gpupack profile [--warmup S] [--duration S] [--sweep [100,50,25,12]] [-o FILE.json] -- cmd args...`:
// measures a program's steady state (docs/profile.md) and prints the workload entry for `gpupack plan`
// (or, with --format json, the workload profile).
#include <cmath>
#include <iostream>
#include <sstream>

#include "bench/interrupt.hpp"
#include "bench/mps_session.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/node_support.hpp"
#include "cli/table.hpp"
#include "cli/workload_name.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "io/input_file.hpp"
#include "io/json_document.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/sm_share_sweep.hpp"
#include "os/scratch_dir.hpp"

namespace gpupack {

namespace {

using namespace measure;

struct ProfileArgs {
  double duration = 10, warmup = 3, interval = 0.5, headroom = 0.15, startup_timeout = 120, tolerance = 0.10, p99_tolerance = 0.10;
  int repeat = 2;
  bool repeat_all = false;
  std::string name, output, sweep, colocation, mps_control = "nvidia-cuda-mps-control";
  OutputFormat format = OutputFormat::yaml;
  std::vector<std::string> command;
};

// The co-location grid of a `gpupack bench --client-cmd ... --json FILE` run, checked, for the profile.
nlohmann::json read_colocation(const Filesystem& fs, const std::string& path) {
  const auto bench = parse_json_document(read_input_file(fs, path), path);
  if (!bench.is_object() || !bench.contains("colocation") || bench.at("colocation").is_null()) {
    throw InputError("--colocation " + path + ": no co-location grid in it; give the --json file of `gpupack bench --client-cmd`");
  }
  try {
    return measure::to_json(measure::colocation_grid_from_json(bench.at("colocation")));  // derived fields recomputed
  } catch (const std::exception& e) {
    throw InputError("--colocation " + path + ": " + e.what());
  }
}

std::chrono::milliseconds ms(double seconds) { return std::chrono::milliseconds(std::lround(seconds * 1000)); }

std::string num(double v, int precision = 3) {
  std::ostringstream s;
  s.precision(precision);
  s << v;
  return s.str();
}

std::string latency_text(const std::optional<double>& p50, const std::optional<double>& p99) {
  if (!p99) return "latency not reported";
  return "p50 " + num(p50.value_or(0)) + " ms, p99 " + num(*p99) + " ms";
}

std::string spread_text(const std::optional<double>& spread) { return spread ? num(*spread * 100, 2) + "%" : "-"; }

// The SM-share curve: each share's means over its runs, their spread, and the demand rule's verdict.
void print_sweep(std::ostream& out, const WorkloadProfile& p) {
  if (p.sm_share_curve.empty()) return;
  Table t({"  MPS threads", "runs", "req/s", "p50 ms", "p99 ms", "spread req/s,p50,p99", "verdict"});
  for (const auto& point : p.sm_share_curve) {
    const RunSpread s = spread_of(point);
    std::string verdict = "-";
    if (point.verdict) {
      verdict = std::string(point.verdict->counted ? "pass" : point.verdict->pass ? "pass, not counted" : "fail") + ": " + point.verdict->why;
    }
    t.add({"  " + std::to_string(point.pct) + "%", std::to_string(std::max<std::size_t>(1, point.runs.size())), num(point.req_per_s, 4),
           point.p50_ms ? num(*point.p50_ms) : "-", point.p99_ms ? num(*point.p99_ms) : "-",
           spread_text(s.req_per_s) + "," + spread_text(s.p50_ms) + "," + spread_text(s.p99_ms), verdict});
  }
  t.print(out);
}

// What people read (on stderr, so that stdout stays the entry or the JSON).
void print_summary(std::ostream& out, const WorkloadProfile& p) {
  out << "gpupack profile: " << p.name << " on " << (p.device.model ? *p.device.model : p.device.name) << ", window "
      << num(p.window.seconds) << " s from " << (p.window.start == "ready-line" ? "its ready line" : "first GPU use + warm-up")
      << (p.window.complete ? "" : " (it exited before the window's end)") << "\n";
  out << "  memory: peak " << format_size(p.memory.peak_bytes) << " ("
      << (p.memory.source == "processes" ? "its processes" : "device increase") << "), entry "
      << format_size(p.memory.with_headroom_bytes) << "\n";
  const auto& a = p.activity;
  if (a.source == "gpm") {
    out << "  activity (GPM): SM active " << num(*a.sm_active) << ", SM occupancy " << (a.sm_occupancy ? num(*a.sm_occupancy) : "-")
        << ", tensor " << (a.tensor_active ? num(*a.tensor_active) : "-") << ", DRAM bandwidth "
        << (a.dram_bw ? num(*a.dram_bw) : "-") << "\n";
  } else if (a.source == "nvml-utilization") {
    out << "  activity: NVML utilisation " << num(*a.utilization)
        << " (no GPM on this GPU: the share of time any kernel ran, an upper bound of the SMs it needs)\n";
  } else {
    out << "  activity: not reported by the driver\n";
  }
  if (p.requests) {
    out << "  requests: " << num(p.requests->req_per_s, 4) << " req/s, " << latency_text(p.requests->p50_ms, p.requests->p99_ms)
        << " (" << p.requests->count << " in the window)\n";
  } else {
    out << "  requests: request latency not reported (" << (p.report.any_line ? "no request lines in the window" : "no client report")
        << "; docs/client-report.md)\n";
  }
  if (p.report.malformed_lines > 0) {
    out << "  report: " << p.report.malformed_lines << " malformed line(s) ignored, the first: " << quote_input(p.report.first_error.value_or("?"))
        << "\n";  // the program's own bytes: ESC or BEL escaped as \xNN (docs/cli.md)
  }
  if (p.host_cpu_cores) out << "  host CPU: " << num(*p.host_cpu_cores) << " cores\n";
  print_sweep(out, p);
  const auto& d = p.compute_demand;
  out << "  compute demand: " << num(d.share) << " (" << d.method;
  if (d.tolerance) out << ", req/s and p50 within " << num(*d.tolerance * 100) << "%";
  if (d.p99_limit) out << ", p99 within " << num(*d.p99_limit * 100) << "%";
  out << ")\n";
}

WorkloadProfile measure_program(const ProfileArgs& a, GpuBackend& gpu, LocalServices& os, const GpuCatalog& catalog,
                                const std::string& scratch) {
  SteadyOptions o;
  o.command = a.command;
  o.name = a.name;
  o.interval = ms(a.interval);
  o.warmup = ms(a.warmup);
  o.duration = ms(a.duration);
  o.startup_timeout = ms(a.startup_timeout);
  o.headroom = a.headroom;
  o.report_path = scratch + "/report.jsonl";
  o.interrupted = [] { return bench::interrupt_requested(); };
  FileReportSource source(os.fs, o.report_path);
  WorkloadProfile p = measure_steady(o, {os.runner, gpu, os.proc, os.clock, source, catalog}).profile;
  if (a.sweep.empty()) return p;
  if (!p.requests || !p.requests->p99_ms) {
    throw ProfileError("--sweep compares the program's own p99 and req/s at each share, but it reported no request "
                       "latencies in its window: make it write its client report (docs/client-report.md)");
  }

  SweepOptions s;
  s.percentages = parse_sweep_percentages(a.sweep);
  s.repeat = a.repeat;
  s.repeat_all = a.repeat_all;
  s.report_dir = scratch;
  bench::MpsSessionOptions mps;
  mps.control_binary = a.mps_control;
  mps.gpu_uuid = p.device.uuid;
  mps.temp_base = scratch;
  std::string why_not;
  auto session = bench::MpsSession::start(mps, os.env, why_not);  // quits in its destructor, on errors and Ctrl-C too
  if (!session) throw ProfileError("--sweep needs a private MPS daemon, which did not start: " + why_not);
  s.mps_env = session->client_environment();
  auto open = [&os](const std::string& path) { return std::make_unique<FileReportSource>(os.fs, path); };
  auto progress = [](int pct, int run) {
    std::cerr << "gpupack profile: sweep, alone under MPS at " << pct << "% threads" << (run > 1 ? ", run " + std::to_string(run) : "") << "\n";
  };
  p.sm_share_curve = run_sweep(o, s, {os.runner, gpu, os.proc, os.clock, catalog, open, progress});
  if (!session->quit()) std::cerr << "gpupack profile: warning: the private MPS daemon did not quit in time\n";
  p.compute_demand = judge_sweep(p.sm_share_curve, {a.tolerance, a.p99_tolerance});
  return p;
}

int profile(ProfileArgs a, const CommandContext& ctx) {
  // Bad input fails before anything runs. The name goes into a plan entry: plan must accept it.
  if (a.name.empty()) a.name = workload_name_from_command(a.command);
  require_workload_name(a.name);
  if (!a.sweep.empty()) parse_sweep_percentages(a.sweep);
  std::optional<nlohmann::json> colocation;
  if (!a.colocation.empty()) colocation = read_colocation(ctx.env.fs, a.colocation);
  if (!a.output.empty()) check_output_file(ctx.env.fs, "-o", a.output);  // a sweep takes minutes
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    const ScratchDir scratch(ctx.env, "gpupack-profile");
    const bench::InterruptGuard guard;
    WorkloadProfile p;
    try {
      p = measure_program(a, gpu, os, ctx.catalog, scratch.path());
    } catch (const ProfileError& e) {
      std::cerr << "gpupack profile: " << e.what() << "; no profile written\n";
      return exit_code::negative;
    } catch (const ProfileInterrupted&) {
      std::cerr << "gpupack profile: interrupted; the program was stopped and no profile written\n";
      return 128 + bench::interrupt_signal();
    } catch (const bench::Interrupted&) {
      std::cerr << "gpupack profile: interrupted; no profile written\n";
      return 128 + bench::interrupt_signal();
    } catch (const MpsError& e) {
      std::cerr << "gpupack profile: " << e.what() << "; no profile written\n";
      return exit_code::unavailable;
    } catch (const InputError&) {
      throw;
    } catch (const std::runtime_error& e) {  // the program could not be started
      std::cerr << "gpupack profile: " << e.what() << '\n';
      return 127;
    }
    p.colocation = colocation;
    const std::string json = profile_to_json(p).dump(2) + "\n";
    if (!a.output.empty()) write_output_file(ctx.env.fs, a.output, json);
    print_summary(std::cerr, p);
    std::cout << (a.format == OutputFormat::json ? json : plan_entry_yaml(p, a.output));
    return exit_code::ok;
  });
}

}  // namespace

void register_profile_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("profile", "Measure a program's steady state (memory, activity, requests, SM-share curve) and print its workload entry for plan");
  auto a = std::make_shared<ProfileArgs>();
  cmd->add_option("--duration", a->duration, "Seconds of the measurement window (then the program is stopped)")->check(CLI::Range(0.1, 86400.0))->capture_default_str();
  cmd->add_option("--warmup", a->warmup, "Seconds after the first GPU use before the window starts (a ready line starts it instead)")->check(CLI::Range(0.0, 3600.0))->capture_default_str();
  cmd->add_option("--startup-timeout", a->startup_timeout, "Stop the program if its window has not begun after this many seconds")->check(CLI::Range(1.0, 86400.0))->capture_default_str();
  cmd->add_option("--interval", a->interval, "Seconds between samples")->check(CLI::Range(0.01, 60.0))->capture_default_str();
  cmd->add_option("--headroom", a->headroom, "Fraction added to the peak memory")->check(CLI::Range(0.0, 10.0))->capture_default_str();
  cmd->add_option("--name", a->name, "Workload name in the entry: lower-case letters, digits, '-' (default: from the script or program, e.g. resnet18-b1)");
  cmd->add_option("-o,--output", a->output, "Also write the workload profile JSON (docs/profile.md) to this file");
  cmd->add_option("--sweep", a->sweep, "Also run it alone under a private MPS daemon at these thread percentages")
      ->expected(0, 1)
      ->default_str("100,50,25,12");
  cmd->add_option("--tolerance", a->tolerance, "Sweep: how much lower req/s and higher p50 may get at the compute demand")->check(CLI::Range(0.0, 1.0))->capture_default_str();
  cmd->add_option("--p99-tolerance", a->p99_tolerance, "Sweep: how much higher p99 may get (or 2x the largest share's p99 spread over its runs, if larger)")->check(CLI::Range(0.0, 10.0))->capture_default_str();
  cmd->add_option("--repeat", a->repeat, "Sweep: runs of the largest share (the reference), for the run-to-run spread")->check(CLI::Range(1, 20))->capture_default_str();
  cmd->add_flag("--repeat-all", a->repeat_all, "Sweep: run every share --repeat times (figures are the means)");
  cmd->add_option("--mps-control", a->mps_control, "Sweep: the nvidia-cuda-mps-control program to use")->capture_default_str();
  cmd->add_option("--colocation", a->colocation, "Put this `gpupack bench --client-cmd --json` file's co-location grid into the profile");
  add_format_option(*cmd, a->format, {"yaml", "json"});
  cmd->add_option("command", a->command, "The program and its arguments (after --)")->required();
  cmd->callback([&ctx, a, cmd] {
    if (cmd->count("--sweep") > 0 && a->sweep.empty()) a->sweep = "100,50,25,12";
    ctx.action = [&ctx, a] { return profile(*a, ctx); };
  });
}

}  // namespace gpupack
