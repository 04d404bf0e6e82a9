// `gpupack profile [--duration S] -- cmd args...`: runs a program alone, samples its GPU memory and
// utilisation, prints a workload entry for `gpupack plan`.
#include <fstream>
#include <iostream>

#include "agent/profiler.hpp"
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/node_support.hpp"
#include "core/errors.hpp"

namespace gpupack {

namespace {

struct ProfileArgs {
  double duration = 0, interval = 0.5, headroom = 0.15;
  std::string name, output;
  std::vector<std::string> command;
};

int profile(const ProfileArgs& a) {
  return with_gpu_backend([&](GpuBackend& gpu) {
    LocalServices os;
    ProfileOptions o;
    o.command = a.command;
    o.name = a.name;
    o.interval = std::chrono::milliseconds(static_cast<long>(a.interval * 1000));
    if (a.duration > 0) o.duration = std::chrono::milliseconds(static_cast<long>(a.duration * 1000));
    o.headroom = a.headroom;
    ProfileResult r;
    try {
      r = profile_program(o, os.runner, gpu, os.proc, os.clock);
    } catch (const std::runtime_error& e) {
      std::cerr << "gpupack profile: " << e.what() << '\n';
      return 127;
    }
    const std::string yaml = workload_yaml(r);
    if (a.output.empty()) {
      std::cout << yaml;
    } else {
      std::ofstream out(a.output);
      if (!(out << yaml)) throw InputError("cannot write " + a.output);
    }
    if (r.exit_code != 0 && !r.stopped_at_duration) {
      std::cerr << "gpupack profile: the program exited with " << r.exit_code << "; the entry covers its run until then\n";
    }
    return r.stopped_at_duration ? exit_code::ok : r.exit_code;
  });
}

}  // namespace

void register_profile_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("profile", "Run a program alone, measure its GPU memory and utilisation, print a workload entry for plan");
  auto a = std::make_shared<ProfileArgs>();
  cmd->add_option("--duration", a->duration, "Stop the program (SIGTERM) after this many seconds")->check(CLI::PositiveNumber);
  cmd->add_option("--interval", a->interval, "Seconds between samples")->check(CLI::Range(0.01, 60.0))->capture_default_str();
  cmd->add_option("--headroom", a->headroom, "Fraction added to the peak memory")->check(CLI::Range(0.0, 10.0))->capture_default_str();
  cmd->add_option("--name", a->name, "Workload name (default: the program's file name)");
  cmd->add_option("-o,--output", a->output, "Write the entry to this file instead of stdout");
  cmd->add_option("command", a->command, "The program and its arguments (after --)")->required();
  cmd->callback([&ctx, a] { ctx.action = [a] { return profile(*a); }; });
}

}  // namespace gpupack
