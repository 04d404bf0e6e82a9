#include "model/slice_contention.hpp"

#include "model/host_cpu_grid.hpp"
#include "model/profile_alone.hpp"

#include <algorithm>
#include <limits>

namespace gpupack::contention {

namespace {

// The width of a client's kernels under its cap, and the share of its time they run: a cap below its
// kernels' width makes them narrower and longer (the GEMM at 30% runs all the time on 30% of the SMs).
double capped_width(const Activity& a) { return std::min(a.width, a.cap); }
double capped_kernel_share(const Activity& a) {
  const double w = capped_width(a);
  return w > 0 ? std::min(1.0, a.sm / std::max(1, a.processes) / w) : 1.0;
}

}  // namespace

Activity activity(const PredictionInput& c, SliceCapacity slice) {
  const ProfileFacts* p = c.workload->profile.get();
  const double cap = c.cap_pct ? *c.cap_pct / 100.0 : 1.0;
  if (!p || !p->sm_active) return {c.replicas * std::min(cap, c.compute), 0, 1, 1, cap, c.replicas};
  const double to_slice = p->gpu_sms > 0 && slice.sms > 0 ? static_cast<double>(p->gpu_sms) / slice.sms : 1.0;
  const double to_slice_bandwidth =
      p->gpu_bandwidth_gbs > 0 && slice.bandwidth_gbs > 0 ? p->gpu_bandwidth_gbs / slice.bandwidth_gbs : to_slice;
  const double a = effective_sm_activity(*p);
  const double exposed = kernel_exposed_share(*p);
  const double sm = std::min(cap, a * to_slice);
  // The bandwidth it draws under a cap follows the work it still gets done: the SM-share curve's req/s at the
  // cap against alone where the profile has a curve (a bandwidth-bound kernel keeps its rate, and its draw, on
  // a quarter of the SMs: stream-triad kept 96% of its req/s at 25% on an H100, results/run34-corpus-h100),
  // else in proportion to the SMs it keeps (the GEMM at 30%).
  double kept = a > 0 ? sm / (a * to_slice) : 1.0;
  if (c.cap_pct && !p->share_curve.empty() && p->req_per_s && *p->req_per_s > 0) {
    ClientOutcome scratch;
    kept = std::clamp(at_cap(*p, c.cap_pct, false, scratch).req / *p->req_per_s, kept, 1.0);
  }
  const double dram = p->dram_bw.value_or(0) * to_slice_bandwidth * kept;
  return {c.replicas * sm, c.replicas * dram, exposed, exposed > 0 ? a / exposed : 1.0, cap, c.replicas};
}

namespace {

// The other processes on client `i`'s slice as copies of it: each its `per_process` figure over the client's,
// at most `most` copies; every one a copy where the client's figure is 0.
template <class PerProcess>
double others_as_copies(const std::vector<Activity>& acts, size_t i, PerProcess per_process, double most) {
  const double own = per_process(acts[i]);
  double copies = 0;
  for (size_t j = 0; j < acts.size(); ++j) {
    const int others = j == i ? acts[j].processes - 1 : acts[j].processes;
    copies += others * (own > 0 ? std::min(most, per_process(acts[j]) / own) : 1.0);
  }
  return copies;
}

}  // namespace

double copy_equivalents(const std::vector<Activity>& acts, size_t i) {
  return others_as_copies(acts, i, [](const Activity& a) { return a.sm / std::max(1, a.processes); }, 1.0);
}

double others_filling_sm(const std::vector<Activity>& acts, size_t i) {
  double caps = 0, sm = 0;
  for (size_t j = 0; j < acts.size(); ++j) {
    const int others = j == i ? acts[j].processes - 1 : acts[j].processes;
    if (others <= 0) continue;
    caps += others * acts[j].cap;
    sm += acts[j].sm * others / std::max(1, acts[j].processes);
  }
  // A little short of 1 still holds them all: caps are whole percentages of the threads.
  return caps >= 0.995 ? sm : 0.0;
}

double sm_overload(const std::vector<Activity>& acts, size_t i) {
  const double others = others_filling_sm(acts, i);
  if (others <= 0) return 0;
  return std::max(0.0, others + acts[i].sm / std::max(1, acts[i].processes) - 1.0);
}

double busy_copies(const std::vector<Activity>& acts, size_t i) {
  return others_as_copies(acts, i, [](const Activity& a) { return a.exposed; }, std::numeric_limits<double>::infinity());
}

double pressure(const std::vector<Activity>& acts, size_t i) {
  double p = acts[i].sm;
  for (size_t j = 0; j < acts.size(); ++j) {
    if (j != i) p += acts[j].sm * std::min(1.0, acts[j].width / std::max(1e-9, acts[i].width));
  }
  return p;
}

double burst_load(const std::vector<Activity>& acts, size_t i, const ModelParameters& m) {
  if (capped_kernel_share(acts[i]) >= m.steady_kernel_share) return 0;
  const double wi = capped_width(acts[i]);
  double load = 0;
  for (size_t j = 0; j < acts.size(); ++j) {
    if (j == i || capped_kernel_share(acts[j]) >= m.steady_kernel_share) continue;
    const double wj = capped_width(acts[j]);
    if (wj > wi) load += acts[j].sm * wj * (1 - wi / wj);
  }
  return load;
}

double burst_wait(const std::vector<Activity>& acts, size_t i, const ModelParameters& m) {
  return m.burst_wait * std::max(0.0, burst_load(acts, i, m) - m.burst_free);
}

}  // namespace gpupack::contention
