// `gpupack run [--gpu UUID|index] [--sm PCT] [--mem SIZE] [--tenant NAME] -- cmd args...`: admits a
// client under the node config, launches it with its limits in the environment, forwards signals and
// returns its exit code.
#include <signal.h>

#include <iostream>

#include "agent/admission.hpp"
#include "agent/admission_slots.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/node_support.hpp"
#include "core/units.hpp"
#include "mps/mps_daemon.hpp"

namespace gpupack {

namespace {

struct RunArgs {
  std::string config;
  std::string gpu, mem, tenant;
  int sm = 0;
  bool verbose = false;
  std::vector<std::string> command;
};

// Signals a terminal or a supervisor sends to the job; gpupack passes them on instead of dying.
sigset_t forwarded_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT, SIGTSTP}) sigaddset(&set, s);
  return set;
}

int run_client(const RunArgs& a, const CommandContext& ctx) {
  RunRequest req;
  if (!a.gpu.empty()) req.gpu = a.gpu;
  if (a.sm != 0) req.sm_percent = a.sm;
  if (!a.mem.empty()) req.memory_bytes = parse_size(a.mem);
  if (!a.tenant.empty()) req.tenant = a.tenant;
  const NodeConfig config = load_node_config(ctx.env.fs, a.config);
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    const auto devices = gpu.devices();
    check_against_devices(config, devices, ctx.catalog);
    auto mps_running = [&](const std::string& target) {
      MpsDaemonOptions o;
      o.paths = mps_paths_for(config, target);
      o.binary = config.control_binary;
      return MpsDaemon(os.runner, os.fs, os.clock, o).is_running();
    };
    // Admission, then a slot of the chosen target (held until the program ends). A concurrent run may
    // take the last slot between the two: then admission is asked again, against the new count.
    Admission adm;
    std::unique_ptr<FileLock> slot;
    for (int attempt = 0; attempt < 8 && !slot; ++attempt) {
      const std::string locks = os.fs.read_file("/proc/locks").value_or("");
      adm = admit(config, devices, req, mps_running, [&](const ResolvedTarget& t) {
        return AdmissionSlots(os.fs, AdmissionSlots::dir_for(config, t.uuid()), t.config->clients).held(locks);
      });
      if (!adm.admitted) break;
      try {
        slot = AdmissionSlots(os.fs, AdmissionSlots::dir_for(config, adm.target_uuid), adm.clients).take();
      } catch (const std::runtime_error& e) {
        std::cerr << "gpupack run: refused: " << e.what() << '\n';
        return exit_code::unavailable;
      }
    }
    if (adm.admitted && !slot) adm = {false, "every slot of " + adm.target_uuid + " was taken by concurrent runs", "", 0, {}};
    if (!adm.admitted) {
      std::cerr << "gpupack run: refused: " << adm.reason << '\n';
      return exit_code::unavailable;
    }
    if (a.verbose) {
      std::cerr << "gpupack run: " << adm.reason;
      for (const auto& [k, v] : adm.env) std::cerr << ' ' << k << '=' << v;
      std::cerr << '\n';
    }
    // Block the forwarded signals here (the child starts with none blocked) and pass each one on.
    const sigset_t set = forwarded_signals();
    sigset_t old;
    ::pthread_sigmask(SIG_BLOCK, &set, &old);
    ProcessSpec spec;
    spec.argv = a.command;
    spec.env = adm.env;
    // The program holds the slot's lock too (the same open file, so the same flock): a SIGKILL of this
    // wrapper no longer frees the slot while the program runs on; the slot is free once both are gone.
    if (slot->descriptor() >= 0) spec.inherited_fds.push_back(slot->descriptor());
    std::unique_ptr<ChildProcess> child;
    try {
      child = os.runner.spawn(spec);
    } catch (const std::runtime_error& e) {
      ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
      std::cerr << "gpupack run: " << e.what() << '\n';
      return 127;
    }
    std::optional<int> status;
    while (!(status = child->poll())) {
      timespec ts{0, 50'000'000};
      const int sig = ::sigtimedwait(&set, nullptr, &ts);
      if (sig > 0) child->signal(sig);
    }
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return *status;
  });
}

}  // namespace

void register_run_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("run", "Run a program as a GPU client with limits, after admission against the node config");
  auto a = std::make_shared<RunArgs>();
  add_config_option(*cmd, a->config);
  cmd->add_option("--gpu", a->gpu, "GPU (UUID or index) or MIG instance (UUID); default: the one with the most headroom");
  cmd->add_option("--sm", a->sm, "Percent of the SMs the client may use (MPS active thread percentage)")->check(CLI::Range(1, 100));
  cmd->add_option("--mem", a->mem, "GPU memory limit, e.g. 8GiB (MPS pinned memory limit)");
  cmd->add_option("--tenant", a->tenant, "Tenant the client belongs to (GPUs reserved for a tenant admit only it)");
  cmd->add_flag("-v,--verbose", a->verbose, "Say where the client runs and with which environment");
  cmd->add_option("command", a->command, "The program and its arguments (after --)")->required();
  cmd->callback([&ctx, a] { ctx.action = [&ctx, a] { return run_client(*a, ctx); }; });
}

}  // namespace gpupack
