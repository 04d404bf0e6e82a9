#include "bench/bench_runner.hpp"

#include <ctime>
#include <functional>

#include "bench/device_query.hpp"
#include "bench/experiments.hpp"
#include "bench/experiments_grid.hpp"
#include "bench/interrupt.hpp"
#include "bench/metrics.hpp"
#include "bench/mps_session.hpp"
#include "os/host_cpus.hpp"
#include "os/proc_reader.hpp"

namespace gpupack::bench {

namespace {

std::string utc_text(const Clock& clock) { return rfc3339_utc(clock.unix_seconds()); }

class Runner {
 public:
  Runner(const BenchOptions& options, const std::string& exe, Progress& progress, Env env, measure::GpuUseWatch* gpu_use)
      : options_(options), workers_(exe), progress_(progress), env_(env), gpu_use_(gpu_use) {
    results_.options = options;
    results_.plan = make_plan(options);
    results_.started_at = utc_text(env_.clock);
  }

  BenchResults run() {
    query_device();
    const ExperimentContext ctx{results_.plan, results_.device, workers_};
    run_without_mps(ctx);
    if (wants_mps()) run_with_mps(ctx);
    progress_.done();
    results_.elapsed_s = progress_.elapsed_s();
    return results_;
  }

 private:
  bool has(Part p) const { return options_.parts.count(p) > 0; }
  bool wants_mps() const { return has(Part::mps) || has(Part::isolation) || has(Part::limits) || has(Part::client); }

  void skip(const std::string& part, const std::string& reason) {
    results_.skipped.push_back({part, reason});
    progress_.note(part + " skipped: " + reason);
  }

  // One experiment: a failure is recorded as that experiment skipped with the reason, and the run goes
  // on; Ctrl-C is not a failure and ends the run.
  void attempt(const std::string& label, const std::function<void()>& body) {
    progress_.step(label);
    try {
      body();
    } catch (const Interrupted&) {
      throw;
    } catch (const std::exception& e) {
      skip(label, std::string("failed: ") + e.what());
    }
  }

  void query_device() {
    progress_.step("device");
    WorkerRequest req;
    req.mode = WorkerMode::info;
    req.blocks = results_.plan.client_blocks;
    req.threads = results_.plan.client_threads;
    req.gemm_n = results_.plan.gemm_n;
    ChildGroup info({workers_.spec({req, plain_environment()})});
    info.wait_exit(std::chrono::seconds(120));
    const ChildOutcome& o = info.outcome(0);
    try {
      results_.device = device_from_worker(parse_worker_output(o.out, "bench-worker info"));
    } catch (const std::runtime_error& e) {
      if (o.exit_code == 3) throw DeviceUnavailable(e.what());  // no driver, no GPU, or no CUDA built in
      throw;
    }
    if (const std::string note = query_driver_tools(results_.device); !note.empty()) progress_.note(note);
  }

  void run_without_mps(const ExperimentContext& ctx) {
    const ModeEnvironment plain = plain_environment();
    const std::string ts = measured_mode(Sharing::time_slicing);
    if (has(Part::streams)) attempt("streams", [&] { results_.streams = run_streams_experiment(ctx); });
    if (has(Part::time_slicing)) {
      for (int k : results_.plan.ks) {
        attempt(ts + " K=" + std::to_string(k),
                [&] { results_.clients.push_back(run_client_experiment(ctx, ts, "", k, plain)); });
      }
    }
    if (has(Part::isolation)) {
      attempt("isolation: neighbour alone", [&] { results_.neighbour_alone_kernels_per_s = run_neighbour_alone(ctx, plain); });
      attempt("isolation: alone",
              [&] { results_.isolation.push_back(run_isolation_experiment(ctx, "alone", plain, nullptr, std::nullopt)); });
      attempt("isolation: " + ts, [&] {
        results_.isolation.push_back(run_isolation_experiment(ctx, ts, plain, &plain, std::nullopt));
      });
    }
    if (has(Part::mig)) run_mig(ctx);
    if (has(Part::client)) {
      start_grid();
      for (int k : options_.client_ks) grid_cell({ts, k, plain, std::nullopt, std::nullopt});
      if (options_.neighbour_cmd) {
        grid_cell({ts, 0, plain, plain, std::nullopt});  // the neighbour alone: its baseline
        grid_cell({ts, 1, plain, plain, std::nullopt});
      }
    }
  }

  // Only instances that already exist: bench never enables MIG or changes the layout.
  void run_mig(const ExperimentContext& ctx) {
    const DeviceInfo& d = results_.device;
    if (d.mig_mode != "Enabled") {
      skip("mig", d.mig_mode.empty() ? "MIG mode unknown or not supported on this GPU"
                                     : "MIG mode is " + d.mig_mode + " (bench never changes it)");
      return;
    }
    if (d.mig_instances.empty()) {
      skip("mig", "MIG mode is on but no MIG instance exists");
      return;
    }
    for (const auto& uuid : d.mig_instances) {
      for (int k : {1, 2}) {
        attempt("mig " + uuid + " K=" + std::to_string(k),
                [&] { results_.clients.push_back(run_client_experiment(ctx, "mig", uuid, k, mig_environment(uuid))); });
      }
    }
  }

  void skip_mps_parts(const std::string& reason) {
    for (Part p : {Part::mps, Part::limits, Part::client}) {
      if (has(p)) skip(to_string(p) + (p == Part::client ? ": " + measured_mode(Sharing::mps) : ""), "MPS could not start: " + reason);
    }
    if (has(Part::isolation)) skip("isolation: " + measured_mode(Sharing::mps), "MPS could not start: " + reason);
  }

  void run_with_mps(const ExperimentContext& ctx) {
    progress_.step("starting MPS");
    MpsSessionOptions session_options;
    session_options.control_binary = options_.mps_control;
    session_options.gpu_uuid = results_.device.uuid;
    std::string why_not;
    const auto session = MpsSession::start(session_options, env_, why_not);
    if (!session) {
      skip_mps_parts(why_not);
      return;
    }
    const ModeEnvironment mps = mps_environment(session->client_environment());
    const std::string mps_mode = measured_mode(Sharing::mps);
    if (has(Part::mps)) {
      for (int k : results_.plan.ks) {
        attempt(mps_mode + " K=" + std::to_string(k),
                [&] { results_.clients.push_back(run_client_experiment(ctx, mps_mode, "", k, mps)); });
      }
    }
    if (has(Part::isolation)) {
      attempt("isolation: " + mps_mode,
              [&] { results_.isolation.push_back(run_isolation_experiment(ctx, mps_mode, mps, &mps, std::nullopt)); });
      for (int cap : results_.plan.caps) {
        const ModeEnvironment capped =
            mps_environment(session->client_environment(), {{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", std::to_string(cap)}});
        attempt("isolation: mps, neighbour at " + std::to_string(cap) + "%", [&] {
          results_.isolation.push_back(run_isolation_experiment(ctx, capped_setting(cap), mps, &capped, cap));
        });
      }
    }
    if (has(Part::limits)) run_limits(ctx, mps);
    if (has(Part::client)) {
      start_grid();
      for (int k : options_.client_ks) grid_cell({mps_mode, k, mps, std::nullopt, std::nullopt});
      if (options_.neighbour_cmd) {
        grid_cell({mps_mode, 1, mps, mps, std::nullopt});
        for (int cap : results_.plan.caps) {
          grid_cell({mps_mode, 1, mps,
                     mps_environment(session->client_environment(), {{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", std::to_string(cap)}}),
                     cap});
        }
      }
      for (int pct : options_.sweep_pcts) sweep_point(*session, pct);
    }
    progress_.step("stopping MPS");
    if (!session->quit()) progress_.note("the MPS daemon did not quit in time; its pipe directory: " + session->paths().pipe_dir);
  }

  void start_grid() {
    if (results_.colocation) return;
    results_.colocation = measure::ColocationGrid{*options_.client_cmd, options_.neighbour_cmd.value_or(""), options_.window_s, {}};
    const HostCpus cpus = host_cpus();  // the cores the copies share
    results_.colocation->node_cores = cpus.online;
    results_.colocation->usable_cores = cpus.usable;
  }

  // One cell of the --client-cmd grid; a failed cell stays in the grid with its error, and is noted.
  void grid_cell(const GridCellRequest& request) {
    progress_.step("client: " + grid_cell_label(request));
    measure::GridCell cell = run_grid_cell(options_, request, env_, gpu_use_, &proc_);
    if (!cell.error.empty()) progress_.note("client: " + measure::cell_label(cell) + " failed: " + cell.error);
    results_.colocation->cells.push_back(std::move(cell));
  }

  // The SM-share curve: one copy alone under MPS at an active thread percentage, measured like a cell.
  void sweep_point(const MpsSession& session, int pct) {
    const std::string label = "client: mps K=1 at " + std::to_string(pct) + "% threads";
    progress_.step(label);
    const ModeEnvironment capped =
        mps_environment(session.client_environment(), {{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", std::to_string(pct)}});
    const measure::GridCell cell = run_grid_cell(options_, {measured_mode(Sharing::mps), 1, capped, std::nullopt, std::nullopt}, env_, gpu_use_);
    if (!cell.error.empty()) return skip(label, cell.error);
    if (!measure::latency_reported(cell)) return skip(label, "request latency was not reported");
    const measure::CopyResult& c = cell.copies.front();
    results_.sm_share_curve.push_back({pct, *c.req_per_s, c.p50_ms, c.p99_ms});
  }

  void run_limits(const ExperimentContext& ctx, const ModeEnvironment& mps) {
    double baseline = 0;
    attempt("limits: 100% threads", [&] { baseline = run_thread_limit(ctx, 100, mps).gflops; });
    if (baseline > 0) {
      for (int cap : results_.plan.caps) {
        attempt("limits: " + std::to_string(cap) + "% threads", [&] {
          ThreadLimitCheck c = run_thread_limit(ctx, cap, mps);
          c.baseline_gflops = baseline;
          results_.thread_limits.push_back(c);
        });
      }
    }
    attempt("limits: pinned memory", [&] { results_.memory_limit = run_memory_limit(ctx, mps); });
  }

  const BenchOptions& options_;
  Workers workers_;
  Progress& progress_;
  Env env_;
  measure::GpuUseWatch* gpu_use_;
  LinuxProcReader proc_;  // the copies' host CPU time
  BenchResults results_;
};

}  // namespace

BenchResults run_bench(const BenchOptions& options, const std::string& worker_executable, Progress& progress, Env env,
                       measure::GpuUseWatch* gpu_use) {
  return Runner(options, worker_executable, progress, env, gpu_use).run();
}

}  // namespace gpupack::bench
