// `gpupack bench`: measure streams, time-slicing, MPS and MIG on this GPU, and the hidden
// `gpupack bench-worker` that runs one measurement in a child process (src/bench/worker_protocol.hpp).
#include <unistd.h>

#include <iostream>

#include "bench/bench_json.hpp"
#include "bench/bench_runner.hpp"
#include "bench/interrupt.hpp"
#include "bench/report_html.hpp"
#include "bench/verdicts.hpp"
#include "bench/worker.hpp"
#include "cli/bench_views.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "os/self_executable.hpp"
#include "core/errors.hpp"
#include "gpu/gpu_backend.hpp"
#include "measure/gpu_use_watch.hpp"
#include "io/input_file.hpp"
#include "measure/sm_share_sweep.hpp"
#include "os/proc_reader.hpp"

namespace gpupack {

namespace {

struct BenchArgs {
  bench::BenchOptions options;
  std::string only;
  int clients = 0;
  std::string ks, sweep;
  std::optional<double> window;
};

// The command as typed, shell-quoted where needed, for the JSON and the report.
std::string command_line(const Filesystem& fs) {
  const std::string cmdline = fs.read_file("/proc/self/cmdline").value_or("");
  std::string out, arg;
  auto flush = [&] {
    const bool plain = !arg.empty() && arg.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                             "0123456789_./=:,@%+-") == std::string::npos;
    std::string quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? arg : quoted + "'");
    arg.clear();
  };
  for (const char c : cmdline) {
    if (c == '\0') {
      flush();
    } else {
      arg += c;
    }
  }
  if (!arg.empty()) flush();
  return out;
}

void finish_options(BenchArgs& a) {
  if (!a.only.empty()) a.options.parts = bench::parse_parts(a.only);
  const bool wants_client = a.options.parts.count(bench::Part::client) > 0;
  if (a.options.client_cmd) {
    a.options.parts.insert(bench::Part::client);
  } else if (wants_client || a.clients > 0 || !a.ks.empty() || a.options.neighbour_cmd || !a.sweep.empty()) {
    throw InputError("-n, --ks, --neighbour-cmd, --sweep and --only client need --client-cmd '<command>' (the program to run as K clients)");
  }
  if (!a.sweep.empty()) a.options.sweep_pcts = measure::parse_sweep_percentages(a.sweep);
  if (a.clients > 0 && !a.ks.empty()) throw InputError("-n K and --ks: give one of them (-n K means --ks 1,K)");
  if (a.clients > 0) a.options.client_ks = bench::parse_ks("1," + std::to_string(a.clients));
  if (!a.ks.empty()) a.options.client_ks = bench::parse_ks(a.ks);
  // --quick shortens the default window; an explicit --window wins.
  a.options.window_s = a.window.value_or(a.options.quick ? 4.0 : a.options.window_s);
}

// The copies' GPU memory is watched through NVML (or the fake backend) when one opens: a program that
// reports nothing is then measured from its first GPU use to its exit. Without one the grid still runs.
std::unique_ptr<GpuBackend> open_gpu_use_backend(const CommandContext& ctx, bench::Progress& progress) {
  try {
    return open_gpu_backend(ctx.env.vars.get("GPUPACK_GPU_BACKEND").value_or(""), ctx.env.fs, ctx.catalog);
  } catch (const std::exception& e) {
    progress.note(std::string("client: the copies' GPU use is not watched (no GPU backend: ") + e.what() + "); wall time only");
    return nullptr;
  }
}

int run_bench_command(const CommandContext& ctx, BenchArgs& a) {
  std::ostream& out = ctx.out;
  finish_options(a);
  if (!bench::built_with_cuda()) {
    std::cerr << "gpupack bench: this gpupack was built without CUDA (nvcc was not found at build time); "
                 "rebuild on a machine with the CUDA toolkit to measure\n";
    return exit_code::unavailable;
  }
  // A bench takes minutes: an output it could not write at its end would lose them.
  if (a.options.json_path) check_output_file(ctx.env.fs, "--json", *a.options.json_path);
  if (a.options.report_path) check_output_file(ctx.env.fs, "--report", *a.options.report_path);
  const bench::InterruptGuard guard;
  bench::Progress progress(std::cerr, ::isatty(2) != 0);
  bench::BenchResults results;
  std::unique_ptr<GpuBackend> gpu = a.options.client_cmd ? open_gpu_use_backend(ctx, progress) : nullptr;
  LinuxProcReader proc;
  std::optional<measure::GpuUseWatch> gpu_use;
  if (gpu) gpu_use.emplace(*gpu, proc);
  try {
    results = bench::run_bench(a.options, self_executable(), progress, ctx.env, gpu_use ? &*gpu_use : nullptr);
    results.command_line = command_line(ctx.env.fs);
    if (gpu_use && gpu_use->error()) progress.note("client: watching the copies' GPU use stopped: " + *gpu_use->error());
  } catch (const bench::DeviceUnavailable& e) {
    progress.done();
    std::cerr << "gpupack bench: " << e.what() << '\n';
    return exit_code::unavailable;
  } catch (const bench::Interrupted&) {
    progress.done();
    std::cerr << "gpupack bench: interrupted; workers ended and gpupack's MPS daemon told to quit\n";
    return 128 + bench::interrupt_signal();
  }
  if (a.options.json_path) write_output_file(ctx.env.fs, *a.options.json_path, bench::to_json(results).dump(1) + "\n");
  if (a.options.report_path) write_output_file(ctx.env.fs, *a.options.report_path, bench::render_report(results));
  print_bench_summary(out, results);
  return bench::any_failed(bench::verdicts(results)) ? exit_code::negative : exit_code::ok;
}

}  // namespace

void register_bench_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand("bench", "Measure streams, time-slicing, MPS and MIG on this GPU");
  cmd->add_flag("--quick", args->options.quick, "Less work per experiment (under 20 s on an H100)");
  cmd->add_option("--only", args->only, "Parts to run: streams,timeslicing,mps,isolation,limits,mig,client");
  cmd->add_option("--client-cmd", args->options.client_cmd,
                  "Your own program (run with /bin/sh -c): its co-location grid, K copies per mode, from its client reports");
  cmd->add_option("-n", args->clients, "Copies of --client-cmd at once: the same as --ks 1,N")->check(CLI::Range(1, 48));
  cmd->add_option("--ks", args->ks, "Copy counts of the --client-cmd grid (default 1,2,4,8)");
  cmd->add_option("--window", args->window, "Seconds measured after all copies are released (default 10, --quick 4)")
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--ready-timeout", args->options.ready_timeout_s,
                  "Seconds every copy has to write its ready line to GPUPACK_REPORT (default 300)")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->add_option("--sweep", args->sweep, "SM-share curve: one copy alone under MPS at these active thread percentages")
      ->expected(0, 1)
      ->default_str("100,50,25,12");
  cmd->add_option("--neighbour-cmd", args->options.neighbour_cmd,
                  "A program (e.g. a batch job) run beside one copy: uncapped, and under MPS capped at 25/50/75% threads");
  cmd->add_option("--json", args->options.json_path, "Write every sample, the settings and the device as JSON");
  cmd->add_option("--report", args->options.report_path, "Write a self-contained HTML report with charts");
  cmd->add_option("--mps-control", args->options.mps_control, "The MPS control program (default nvidia-cuda-mps-control)");
  cmd->callback([&ctx, args, cmd] {
    if (cmd->count("--sweep") > 0 && args->sweep.empty()) args->sweep = "100,50,25,12";  // bare --sweep
    ctx.action = [&ctx, args] { return run_bench_command(ctx, *args); };
  });

  auto request = std::make_shared<bench::WorkerRequest>();
  auto mode = std::make_shared<std::string>();
  CLI::App* worker = app.add_subcommand("bench-worker", "");
  worker->group("");  // hidden: gpupack bench starts it
  worker->add_option("mode", *mode)->required();
  worker->add_option("--blocks", request->blocks);
  worker->add_option("--threads", request->threads);
  worker->add_option("--iters", request->iters);
  worker->add_option("--launches", request->launches);
  worker->add_option("--gemm-n", request->gemm_n);
  worker->add_option("--within-mib", request->within_mib);
  worker->add_option("--beyond-mib", request->beyond_mib);
  worker->add_flag("--sync", request->sync);
  worker->callback([&ctx, request, mode] {
    ctx.action = [&ctx, request, mode] {
      request->mode = bench::worker_mode_from_string(*mode);
      return bench::run_worker(*request, std::cin, ctx.out);
    };
  });
}

}  // namespace gpupack
