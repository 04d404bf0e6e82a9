// `gpupack profile [--baseline-runs N] [--sweep [100,50,25,12]] [--grid [2,4,8]] [--neighbour-cmd CMD]
// [-o FILE.json] -- cmd args...`: measures a program's steady state (docs/profile.md) and prints the workload
// entry for `gpupack plan` (or, with --format json, the workload profile). The measurements themselves are
// in profile_measure.cpp, the summary in profile_summary.cpp.
#include <iostream>

#include "bench/interrupt.hpp"
#include "cli/command.hpp"
#include "cli/gpu_access.hpp"
#include "cli/profile_measure.hpp"
#include "cli/profile_summary.hpp"
#include "cli/workload_name.hpp"
#include "core/errors.hpp"
#include "core/exit_codes.hpp"
#include "io/input_file.hpp"
#include "io/json_document.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/steady_profile.hpp"
#include "mps/mps_daemon.hpp"
#include "os/scratch_dir.hpp"

namespace gpupack {

namespace {

using namespace measure;

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

int profile(ProfileArgs a, const CommandContext& ctx) {
  // Bad input fails before anything runs. The name goes into a plan entry: plan must accept it.
  if (a.name.empty()) a.name = workload_name_from_command(a.command);
  require_workload_name(a.name);
  check_profile_args(a);
  std::optional<nlohmann::json> colocation;
  if (!a.colocation.empty()) colocation = read_colocation(ctx.env.fs, a.colocation);
  if (!a.output.empty()) check_output_file(ctx.env.fs, "-o", a.output);  // a sweep takes minutes
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    const ScratchDir scratch(ctx.env, "gpupack-profile");
    const bench::InterruptGuard guard;
    WorkloadProfile p;
    try {
      p = measure_program(a, gpu, ctx.env, ctx.catalog, scratch.path());
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
    if (colocation) p.colocation = colocation;
    const std::string json = profile_to_json(p).dump(2) + "\n";
    if (!a.output.empty()) write_output_file(ctx.env.fs, a.output, json);
    print_profile_summary(std::cerr, p);
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
  cmd->add_option("--baseline-runs", a->baseline_runs, "Fresh runs of the program alone (and of the sweep's 100% share); the baseline is their median")->check(CLI::Range(1, 20))->capture_default_str();
  cmd->add_option("--baseline-spread-limit", a->baseline_spread_limit, "Flag the baseline as not repeatable when its req/s or p50 spread, (max - min) / median, is above this")->check(CLI::Range(0.0, 10.0))->capture_default_str();
  cmd->add_option("--grid", a->grid, "Also run K copies at once under the private MPS daemon at these counts (K=1 is added), released together")
      ->expected(0, 1)
      ->default_str("2,4,8");
  cmd->add_flag("--no-grid", a->no_grid, "Sweep: leave out the short co-location grid (K=1 and up to 4 copies) it runs without --grid");
  cmd->add_flag("--grid-timeslicing", a->grid_timeslicing, "Grid: the same copy counts without MPS (time-slicing) too");
  cmd->add_flag("--no-grid-timeslicing", a->no_grid_timeslicing, "Sweep: run the short co-location grid under MPS only (it runs K=1 and its copies without MPS too)");
  cmd->add_option("--neighbour-cmd", a->neighbour_cmd, "Also run the program beside this neighbour (through /bin/sh -c) under MPS, the neighbour capped at --neighbour-caps");
  cmd->add_option("--compute-neighbour-cmd", a->compute_neighbour_cmd,
                  "Also run the program beside this compute-bound neighbour (through /bin/sh -c) under MPS, uncapped, e.g. \"gpupack neighbour --kind compute\" (recorded, not read by the planner)");
  cmd->add_option("--pressure-cmd", a->pressure_cmd,
                  "Also run this launch-bound reporter (through /bin/sh -c) under MPS alone, then beside the program: what the program costs launch-bound neighbours (--sweep runs \"gpupack neighbour --kind reporter\")");
  cmd->add_flag("--no-pressure", a->no_pressure, "Sweep: leave out the launch-bound reporter (gpupack neighbour --kind reporter) it runs beside the program");
  cmd->add_flag("--no-neighbour", a->no_neighbour, "Sweep: leave out the standard neighbour (gpupack neighbour, a DRAM-bound triad) it runs without --neighbour-cmd");
  cmd->add_option("--neighbour-caps", a->neighbour_caps, "The neighbour's MPS thread percentages")->capture_default_str();
  cmd->add_option("--colocation", a->colocation, "Put this `gpupack bench --client-cmd --json` file's co-location grid into the profile");
  add_format_option(*cmd, a->format, {"yaml", "json"});
  cmd->add_option("command", a->command, "The program and its arguments (after --)")->required();
  cmd->callback([&ctx, a, cmd] {
    if (cmd->count("--sweep") > 0 && a->sweep.empty()) a->sweep = "100,50,25,12";
    if (cmd->count("--grid") > 0 && a->grid.empty()) a->grid = "2,4,8";
    a->neighbour_caps_given = cmd->count("--neighbour-caps") > 0;
    ctx.action = [&ctx, a] { return profile(*a, ctx); };
  });
}

}  // namespace gpupack
