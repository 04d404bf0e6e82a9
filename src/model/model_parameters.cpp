#include "model/model_parameters.hpp"

#include <array>
#include <cmath>
#include <type_traits>

namespace gpupack {

namespace {

using M = ModelParameters;

// A plain number field of ModelParameters.
template <auto Field>
constexpr double get_field(const M& m, std::size_t) {
  return static_cast<double>(m.*Field);
}
template <auto Field>
constexpr void set_field(M& m, std::size_t, double v) {
  using T = std::remove_reference_t<decltype(m.*Field)>;
  m.*Field = static_cast<T>(v);
}
// A curve of the calibration (three points).
template <auto Field>
constexpr double get_curve(const M& m, std::size_t i) {
  return (m.calibration.*Field)[i];
}
template <auto Field>
constexpr void set_curve(M& m, std::size_t i, double v) {
  (m.calibration.*Field)[i] = v;
}
template <auto Field>
constexpr double get_cal(const M& m, std::size_t) {
  return m.calibration.*Field;
}
template <auto Field>
constexpr void set_cal(M& m, std::size_t, double v) {
  m.calibration.*Field = v;
}

// Ratios of a time beside neighbours over the time alone: a neighbour never makes a client faster, so below
// 1 only by measurement noise (5 % allowed), as the bench calibration's reader has always accepted.
constexpr std::string_view kRatio = "a ratio of a time beside neighbours over the time alone: 0.95 to 1000";
constexpr std::string_view kFraction = "a fraction of the throughput alone: above 0 and at most 1.05";

constexpr ParameterSpec number(std::string_view name, std::string_view source, std::string_view accepted, double lo,
                               bool lo_inclusive, double hi, double (*get)(const M&, std::size_t),
                               void (*set)(M&, std::size_t, double), bool integer = false, std::size_t size = 1) {
  return ParameterSpec{name, source, accepted, lo, lo_inclusive, hi, integer, size, get, set};
}

const std::array kSpecs{
    // The synthetic model: docs/decisions.md; ../shared/reference/mps.md on an H200 unless a bench file says.
    number("timeslicing_p99_inflation",
           "p99 of a latency client beside one saturating neighbour under time-slicing, H200 (reference/mps.md)",
           kRatio, 0.95, true, 1000, get_cal<&Calibration::timeslicing_p99_inflation>,
           set_cal<&Calibration::timeslicing_p99_inflation>),
    number("mps_p99_inflation", "the same under MPS, uncapped neighbour, H200 (reference/mps.md)", kRatio, 0.95, true,
           1000, get_cal<&Calibration::mps_p99_inflation>, set_cal<&Calibration::mps_p99_inflation>),
    number("mps_capped_p99_inflation",
           "the same with the neighbour capped at 25/50/75 %: 50 % measured on an H200 (1.09), 25 and 75 % interpolated",
           kRatio, 0.95, true, 1000, get_curve<&Calibration::mps_capped_p99_inflation>,
           set_curve<&Calibration::mps_capped_p99_inflation>, false, 3),
    number("mps_capped_neighbour_throughput",
           "throughput a neighbour capped at 25/50/75 % keeps: 50 % measured on an H200 (0.52), others interpolated",
           kFraction, 0, false, 1.05, get_curve<&Calibration::mps_capped_neighbour_throughput>,
           set_curve<&Calibration::mps_capped_neighbour_throughput>, false, 3),
    number("timeslicing_slowdown",
           "per-client time with K = 2/4/8 time-sliced clients over one, H200 (K = 8: middle of 5.4-6.4 measured)",
           kRatio, 0.95, true, 1000, get_curve<&Calibration::timeslicing_slowdown>,
           set_curve<&Calibration::timeslicing_slowdown>, false, 3),
    number("mps_slowdown", "per-client time with K = 2/4/8 MPS clients over one, H200 (reference/mps.md)", kRatio,
           0.95, true, 1000, get_curve<&Calibration::mps_slowdown>, set_curve<&Calibration::mps_slowdown>, false, 3),
    number("timeslicing_busy_z",
           "z of the 99th percentile of a normal distribution: busy time-slicing neighbours at p99 = mean + z sd",
           "a number of standard deviations from 0 to 10", 0, true, 10, get_field<&M::timeslicing_busy_z>,
           set_field<&M::timeslicing_busy_z>),
    // The profile model: fitted on every slice `gpupack verify` measured on H100s (docs/decisions.md).
    number("mps_launch_cost_per_client",
           "fitted with dram_queueing on the H100 verify runs (results/verify-profiled-h100/run1-6, verify-issue15-h100, "
           "verify-h100) and the MPS grids of results/grid-h100",
           "a slowdown per other client from 0 to 10", 0, true, 10, get_field<&M::mps_launch_cost_per_client>,
           set_field<&M::mps_launch_cost_per_client>),
    number("dram_queueing", "fitted with mps_launch_cost_per_client on the same H100 runs and grids",
           "a factor from 0 to 10", 0, true, 10, get_field<&M::dram_queueing>, set_field<&M::dram_queueing>),
    number("launch_cost_min_idle",
           "a profile's own MPS grid gives its launch cost only where its client idles this share of its time "
           "(below it the fit divides by almost nothing)",
           "a share of time from 0 to 1", 0, true, 1, get_field<&M::launch_cost_min_idle>,
           set_field<&M::launch_cost_min_idle>),
    number("launch_cost_from_grid_max",
           "upper bound of a launch cost fitted from a profile's grid: 5x the H100 fit, beyond any grid measured",
           "a slowdown per other client from 0 to 10", 0, true, 10, get_field<&M::launch_cost_from_grid_max>,
           set_field<&M::launch_cost_from_grid_max>),
    number("colocated_tail_ratio",
           "p99 / mean beside busy MPS neighbours: 1.1-1.8 in every stall-free H100 slice measured (docs/decisions.md, "
           "\"Tail\")",
           "a ratio from 1 to 100", 1, true, 100, get_field<&M::colocated_tail_ratio>,
           set_field<&M::colocated_tail_ratio>),
    number("colocated_tail_excess",
           "a client's own tail beyond its mean, x its request time capped alone: resnet18-b1 replicas with 7-16 "
           "clients on H100s (docs/decisions.md, \"Tail\")",
           "a share of the request time from 0 to 100", 0, true, 100, get_field<&M::colocated_tail_excess>,
           set_field<&M::colocated_tail_excess>),
    number("tail_cap_max_clients",
           "the most client processes the tail cap was measured with on a 16-core H100 host (15 resnets and the GEMM)",
           "a whole number of clients from 1 to 10000", 1, true, 10000, get_field<&M::tail_cap_max_clients>,
           set_field<&M::tail_cap_max_clients>, true),
    number("core_wait_ms",
           "wait for a host core per full set of cores: resnet18-b1 density searches beside the GEMM on 16 cores, H100 "
           "runs 6, 8, 16, 21, 22 (docs/decisions.md, \"Host CPU\")",
           "milliseconds from 0 to 1000", 0, true, 1000, get_field<&M::core_wait_ms>, set_field<&M::core_wait_ms>),
    number("steady_kernel_share",
           "kernels that run at least this share of the time do not burst (the GEMM capped at 30-55 %, H100 run 13)",
           "a share of time from 0 to 1", 0, true, 1, get_field<&M::steady_kernel_share>,
           set_field<&M::steady_kernel_share>),
    number("burst_free",
           "burst load of wider neighbours a client absorbs: fitted on H100 runs 1-13 (results/verify-profiled-h100)",
           "a load from 0 to 100", 0, true, 100, get_field<&M::burst_free>, set_field<&M::burst_free>),
    number("burst_wait",
           "kernel-time stretch per unit of burst load past burst_free: fitted on H100 runs 1-13 "
           "(resnet18-b1's req/s error 8.9% -> 6.3%)",
           "a factor from 0 to 100", 0, true, 100, get_field<&M::burst_wait>, set_field<&M::burst_wait>),
    // Defaults where the scenario says nothing.
    number("profiled_slo_margin",
           "a profiled workload's SLO margin: worst windows 13-15% above the prediction at the density edge, H100 "
           "runs 22-24 (docs/decisions.md, \"SLO margin\")",
           "a margin from 0 to 10", 0, true, 10, get_field<&M::profiled_slo_margin>,
           set_field<&M::profiled_slo_margin>),
    number("baseline_spread_margin",
           "a profile whose alone baseline is flagged not repeatable keeps an SLO margin of at least this x how much "
           "slower than the median its slowest run was (median req/s / lowest - 1, highest p50 / median - 1): a fresh "
           "start that much slower is that much slower in every request, its p99 too (issue 36: 133-228 req/s alone "
           "over four profiles of one CNN; the slowest run, not the spread, since run85)",
           "a factor from 0 to 10", 0, true, 10, get_field<&M::baseline_spread_margin>,
           set_field<&M::baseline_spread_margin>),
    number("host_cpu_knee_growth_share",
           "a grid step that grew by less than this share of what its added copies would add at the previous K's rate "
           "is a knee: runs of one program repeat within 5-10%, the grid's steps need 16-50% (issue 37's decode loop "
           "grew 31% from 12 to 16 copies and fell 2% from 16 to 24; a design choice, not fitted)",
           "a share above 0 and at most 1", 0, false, 1, get_field<&M::host_cpu_knee_growth_share>,
           set_field<&M::host_cpu_knee_growth_share>),
    number("host_cpu_knee_full_cores",
           "the host's cores were full at a knee when the copies used at least this share of them: gpupack's sampling, "
           "the MPS server and the system share the cores, and /proc sampled every 0.25 s reads a few percent either "
           "way (a design choice, not fitted)",
           "a share above 0 and at most 1", 0, false, 1, get_field<&M::host_cpu_knee_full_cores>,
           set_field<&M::host_cpu_knee_full_cores>),
    number("baseline_spread_unjudged",
           "above this judged spread of its baseline a workload with an SLO is not placed: its runs alone disagree by "
           "more than any margin the packing can keep (a design choice: runs twice as fast as others; launch-bound "
           "programs on virtual machines spread 44-74% from the host beneath, results/run41-residual-noise)",
           "a spread from 0 to 10", 0, true, 10, get_field<&M::baseline_spread_unjudged>,
           set_field<&M::baseline_spread_unjudged>),
    number("p99_alone_share_of_slo",
           "p99 alone where neither the scenario nor a profile states it: half the SLO (docs/workloads.md)",
           "a share of the SLO above 0 and at most 1", 0, false, 1, get_field<&M::p99_alone_share_of_slo>,
           set_field<&M::p99_alone_share_of_slo>),
    number("mps_cap_step_pct", "MPS active-thread caps are rounded up to multiples of this, at least one (a design choice: few distinct limits)",
           "a whole percentage from 1 to 100", 1, true, 100, get_field<&M::mps_cap_step_pct>,
           set_field<&M::mps_cap_step_pct>, true),
    number("slo_cap_headroom",
           "an SLO client's MPS cap is this x its demand, as room for bursts, unless that breaks an SLO (a "
           "design choice, not fitted)",
           "a factor from 1 to 100", 1, true, 100, get_field<&M::slo_cap_headroom>, set_field<&M::slo_cap_headroom>),
    number("usable_memory_share",
           "memory the driver reports of nominal where the catalog has no MIG profile: an L4 22.5 of 24 GiB, a T4 "
           "15 of 16",
           "a share above 0 and at most 1", 0, false, 1, get_field<&M::usable_memory_share>,
           set_field<&M::usable_memory_share>),
    number("curve_share_tolerance",
           "the SM-share curve's knee: the least share keeping req/s within this of its best (p99 varies more run "
           "to run: resnet18-b1 3.2 to 5.5 ms alone)",
           "a share from 0 to 1", 0, true, 1, get_field<&M::curve_share_tolerance>,
           set_field<&M::curve_share_tolerance>),
    number("min_packing_compute",
           "the least compute demand a profile's own rule is packed at: one percent of the SMs",
           "a share above 0 and at most 1", 0, false, 1, get_field<&M::min_packing_compute>,
           set_field<&M::min_packing_compute>),
    number("memory_queueing_note_above",
           "DRAM queueing is named in a prediction's notes only above this factor (half a percent: below the "
           "notes' two decimals)",
           "a factor from 1 to 100", 1, true, 100, get_field<&M::memory_queueing_note_above>,
           set_field<&M::memory_queueing_note_above>),
};

}  // namespace

bool ParameterSpec::accepts(double v) const {
  if (!std::isfinite(v)) return false;
  if (lo_inclusive ? v < lo : v <= lo) return false;
  if (v > hi) return false;
  return !integer || v == std::floor(v);
}

std::span<const ParameterSpec> parameter_specs() { return kSpecs; }

const ParameterSpec* find_parameter(std::string_view name) {
  for (const ParameterSpec& s : kSpecs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string_view source_of(const ModelParameters& m, const ParameterSpec& spec) {
  const auto it = m.sources.find(spec.name);
  return it == m.sources.end() ? spec.source : std::string_view(it->second);
}

}  // namespace gpupack
