#include "verify/verify_driver.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "verify/host_speed_note.hpp"
#include "verify/margin_check.hpp"

namespace gpupack::verify {

namespace {

class RunCounter {
 public:
  RunCounter(const DriverOptions& options, const SessionDeps& deps) : options_(options), deps_(deps) {}

  SessionRun run(const std::vector<SliceSetup>& slices, const std::string& what) {
    SessionOptions o = options_.session;
    o.work_dir = options_.scratch_dir + "/run-" + std::to_string(++count_);
    deps_.fs.make_dirs(o.work_dir, 0700);
    if (options_.progress) options_.progress(fmt::format("verify: run {}: {}", count_, what));
    return run_session(slices, o, deps_);
  }

 private:
  const DriverOptions& options_;
  const SessionDeps& deps_;
  int count_ = 0;
};

// Each reporting workload alone on the device of its first replica's slice, without MPS and its limits:
// the p99 alone that the plan's inflation multiplies, and the throughput its slice share scales. Not for
// a workload whose every replica the plan's profile predicts (its figures are used as they are).
std::vector<AloneFigures> solo_runs(const VerifySetup& setup, const DriverOptions& options, RunCounter& runs) {
  std::vector<AloneFigures> out;
  for (const auto& name : workloads_of(setup)) {
    AloneFigures a;
    a.workload = name;
    a.source = "none";
    const SliceSetup* home = nullptr;
    const ReplicaSetup* first = nullptr;
    for (const auto& s : setup.slices) {
      for (const auto& r : s.replicas) {
        if (!first && r.workload == name) {
          home = &s;
          first = &r;
        }
      }
    }
    // A workload the plan's profile predicts fully (every replica here) needs no solo run.
    bool profiled = true;
    for (const auto& s : setup.slices) {
      for (const auto& r : s.replicas) profiled = profiled && (r.workload != name || r.fully_profiled());
    }
    if (const auto p = setup.profile_alone.find(name); p != setup.profile_alone.end()) {
      a.profile_p99_ms = p->second.p99_ms;
      a.profile_req_per_s = p->second.req_per_s;
      a.profile_scaled_from = p->second.scaled_from;
      a.profile_runs = p->second.runs;
      a.profile_host_core_work_ms = p->second.host_core_work_ms;
    }
    if (profiled && first->reports && !options.measure_alone) {
      a.source = "profile";
    } else if ((options.solo || (profiled && options.measure_alone)) && first->reports) {
      SliceSetup alone;
      alone.gpu_id = home->gpu_id;
      alone.slice_id = home->slice_id;
      alone.gpu_index = home->gpu_index;
      alone.device_uuid = home->device_uuid;
      alone.sharing = std::string(to_string(Sharing::exclusive));
      ReplicaSetup r = *first;
      r.env = {{"CUDA_VISIBLE_DEVICES", home->device_uuid}};
      alone.replicas.push_back(r);
      a.source = "solo run";
      for (int k = 0; k < options.repeat; ++k) {
        const SessionRun run = runs.run({alone}, fmt::format("{} alone on {} ({}/{})", name, home->device_uuid, k + 1, options.repeat));
        const ReplicaRun& rr = run.slices[0][0];
        if (rr.exit_code && rr.ended_early) {
          throw VerifyFailure(fmt::format("{} alone exited with code {} during its solo run{}{}", name, *rr.exit_code,
                                          rr.log_tail.empty() ? "" : ": ", rr.log_tail));
        }
        if (rr.figures && rr.figures->p99_ms) a.p99_ms.runs.push_back(*rr.figures->p99_ms);
        if (rr.figures && rr.figures->requests > 0) a.req_per_s.runs.push_back(rr.figures->req_per_s);
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::optional<double> worst_p99(const SessionRun& run) {
  std::optional<double> worst;
  for (const auto& slice : run.slices) {
    for (const auto& r : slice) {
      if (r.figures && r.figures->p99_ms) worst = std::max(worst.value_or(0), *r.figures->p99_ms);
    }
  }
  return worst;
}

// The req/s of `workload`'s replicas on the slice, summed; none when one of them reported no requests.
std::optional<double> aggregate_req_per_s(const SliceSetup& slice, const std::vector<ReplicaRun>& runs,
                                          const std::string& workload) {
  double sum = 0;
  for (size_t i = 0; i < slice.replicas.size() && i < runs.size(); ++i) {
    if (slice.replicas[i].workload != workload) continue;
    if (!runs[i].figures || runs[i].figures->requests <= 0) return std::nullopt;
    sum += runs[i].figures->req_per_s;
  }
  return sum;
}

SearchResult density_search(const VerifySetup& setup, const DriverOptions& options, RunCounter& runs) {
  SearchResult result;
  result.workload = *options.search;
  auto step = [&](int n) {
    const SliceSetup slice = search_slice(setup, result.workload, n, result.planned);
    result.slice = slice.name();
    const SessionRun run = runs.run({slice}, fmt::format("search: {} x {} on {}", n, result.workload, slice.name()));
    SearchStep s;
    s.replicas = n;
    s.fits = run_fits({slice}, run, s.why);
    s.worst_p99_ms = worst_p99(run);
    s.aggregate_req_per_s = aggregate_req_per_s(slice, run.slices[0], result.workload);
    result.steps.push_back(s);
    return s.fits;
  };
  search_slice(setup, result.workload, 1, result.planned);
  for (const auto& u : setup.unplaced) {
    if (u.workload != result.workload) continue;
    if (result.unplaced++ == 0) {
      result.unplaced_code = u.code;
      result.unplaced_reason = u.reason;
    }
  }
  int n = std::max(1, result.planned);
  if (step(n)) {
    // Up by search_step while every SLO holds; after a break, bisect between the last fit and the break,
    // so each run on a real GPU (tens of seconds of start-up and window) narrows the answer to one replica.
    int broke = 0;
    while (n < options.search_max) {
      const int next = std::min(options.search_max, n + std::max(1, options.search_step));
      if (!step(next)) {
        broke = next;
        break;
      }
      n = next;
    }
    while (broke > n + 1) {
      const int mid = n + (broke - n) / 2;
      if (step(mid)) n = mid;
      else broke = mid;
    }
    result.most_that_fit = n;
    result.capped = n >= options.search_max;
  } else {
    while (n > 1 && !step(n - 1)) --n;
    result.most_that_fit = n > 1 ? n - 1 : 0;
  }
  return result;
}

}  // namespace

SliceSetup search_slice(const VerifySetup& setup, const std::string& workload, int count, int& planned) {
  for (const auto& s : setup.slices) {
    const auto first = std::find_if(s.replicas.begin(), s.replicas.end(), [&](const ReplicaSetup& r) { return r.workload == workload; });
    if (first == s.replicas.end()) continue;
    SliceSetup out = s;
    out.replicas.clear();
    planned = 0;
    for (const auto& r : s.replicas) {
      if (r.workload == workload) {
        ++planned;
      } else {
        out.replicas.push_back(r);
      }
    }
    for (int i = 0; i < count; ++i) {
      ReplicaSetup r = *first;
      r.replica = i;
      r.extra = i >= planned;
      out.replicas.push_back(r);
    }
    return out;
  }
  throw InputError(fmt::format("--search {}: the plan places no replica of it on the verified node", workload));
}

VerifyReport run_verify(const VerifySetup& setup, const DriverOptions& options, const SessionDeps& deps) {
  RunCounter runs(options, deps);
  if (options.search) {
    int planned = 0;
    search_slice(setup, *options.search, 1, planned);  // an unknown workload fails before anything runs
  }
  // Before any replica starts: a client spinning on a core would be timed instead of the core.
  const std::optional<measure::HostCoreWork> host = deps.cpu_probe ? time_host_speed(*deps.cpu_probe) : std::nullopt;
  const std::vector<AloneFigures> alone = solo_runs(setup, options, runs);
  std::vector<SessionRun> config_runs;
  for (int k = 0; k < options.repeat; ++k) {
    config_runs.push_back(runs.run(setup.slices, fmt::format("the plan's placements on node {} ({}/{})", setup.node, k + 1, options.repeat)));
  }
  VerifyReport report = compare(setup, config_runs, alone, options.tolerance);
  add_margin_checks(report, setup.slo_margin);
  report.host_core_work = host;
  add_host_speed_note(report);
  report.warmup_s = options.session.warmup_s;
  report.sample_interval_s = options.session.sample_s;
  report.duration_s = options.session.duration_s;
  report.strict = options.strict;
  if (options.search) report.search = density_search(setup, options, runs);
  return report;
}

}  // namespace gpupack::verify
