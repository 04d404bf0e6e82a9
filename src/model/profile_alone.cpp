#include "model/profile_alone.hpp"

#include "core/sharing.hpp"
#include "model/host_cpu_grid.hpp"
#include "model/profile_baseline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace gpupack {

double lerp_points(double x0, double y0, double x1, double y1, double x) {
  return x1 == x0 ? y1 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

// Figures in notes: two decimals, whole numbers from 10 up.
std::string note_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 10 ? "%.0f" : "%.2f", v);
  return buf;
}

void scale_figures(Figures& f, double speed) {
  f.req *= speed;
  if (f.p99) *f.p99 /= speed;
}

double kernel_exposed_share(const ProfileFacts& p) {
  // Copies that saturated the GPU with cores to spare spend their requests on it (grid_gpu_demand).
  if (grid_gpu_demand(p)) return 1.0;
  const double a = std::clamp(p.sm_active.value_or(0.0), 0.0, 1.0);
  return std::clamp(std::max(a, p.kernel_time.value_or(a)), 0.0, 1.0);
}

namespace {

// A cap that keeps `kept` of the client's req/s lengthens its mean request (a closed loop: 1 / req/s) by
// 1 / kept; its tail beyond the mean stays what it was (the jitter of its own requests, not of the work
// the cap spreads over fewer SMs): the GEMM job's p99 was 1.16x its mean alone and 1.03-1.10x capped at
// 20-55% beside the resnets (docs/decisions.md, "Tail"), where p99 / kept over-predicted it by 14-30%.
void cap_to(Figures& f, double kept) {
  const double excess = f.p99 && f.req > 0 ? std::max(0.0, *f.p99 - 1000.0 / f.req) : 0.0;
  f.req *= kept;
  if (f.p99 && f.req > 0) f.p99 = 1000.0 / f.req + excess;
}

// The client alone under an MPS cap of `cap` percent: the SM-share curve where measured.
Figures curve_at_cap(const ProfileFacts& p, std::optional<int> cap, ClientOutcome& out) {
  Figures alone{p.req_per_s.value_or(0), p.p99_ms};
  if (!cap) return alone;
  const auto& c = p.share_curve;
  if (c.empty()) {
    if (p.sm_active && *p.sm_active > 0 && *cap < 100 * *p.sm_active) {
      // A cap below what it keeps busy alone: it keeps cap/activity of its work (a saturating client
      // capped at c % does the work of c % of the SMs, the calibration's measured 50 %: 0.52).
      const double kept = (*cap / 100.0) / *p.sm_active;
      cap_to(alone, kept);
      out.extrapolated = true;
      out.notes.push_back({ModelNote::Kind::cap_below_activity, {*p.sm_active, kept}, {*cap}});
    }
    return alone;
  }
  if (*cap < c.front().pct) {
    // Below the lowest point. Where the profile's own rule found the program keeps its req/s at that
    // point (compute demand from the sweep at or below it), it needs no more than that share, and its
    // measured SM activity says how much it needs: it loses work only below that. Otherwise it was
    // already losing work there: its kernels take lowest point / cap as long. They run while its host launches
    // the next ones (the launch and host time is not added to theirs), so they lengthen a request only once
    // their stretched time passes the whole request: kept = 1 / max(1, kernel share x lowest / cap). A sweep
    // whose runs moved with the host (run45: mobilenet-v3-b8 on an H200, 259, 203 and 227 req/s at 100, 50 and
    // 25%) reads a launch-bound program as needing every SM; cut in proportion to the cap, its 4 copies at 15%
    // were predicted at 77 req/s and ran at 174-178. Adding the stretched kernel time to the rest (Amdahl, as
    // the contention terms do) still predicted 0.80 of its rate at 10% (122 req/s) where run48's four copies
    // ran at 163-176 beside 9 others, 188 alone (results/run48-inference-recheck).
    const bool holds_at_lowest = p.compute_method == "sweep" && p.compute_demand <= c.front().pct / 100.0 + 1e-9;
    double need = c.front().pct;
    if (holds_at_lowest && p.sm_active && *p.sm_active > 0) need = std::min(need, 100.0 * *p.sm_active);
    // The share of its time its kernels run needs NVML's kernel time: SM activity alone is a share of the SMs'
    // capacity, far below the time a narrow kernel runs (issue 37's decode loop: 1.8% of the SMs busy).
    const double exposed = p.kernel_time ? kernel_exposed_share(p) : 1.0;
    const double kept = holds_at_lowest ? std::min(1.0, *cap / need)
                                        : std::min(1.0, 1.0 / std::max(1.0, exposed * need / *cap));
    Figures f{c.front().req_per_s, c.front().p99_ms ? c.front().p99_ms : alone.p99};
    if (kept < 1) cap_to(f, kept);
    out.extrapolated = true;
    out.notes.push_back({ModelNote::Kind::cap_below_curve, {need, kept, exposed}, {*cap, c.front().pct}, need < c.front().pct});
    return f;
  }
  for (size_t i = 1; i < c.size(); ++i) {
    if (*cap <= c[i].pct) {
      Figures f{lerp_points(c[i - 1].pct, c[i - 1].req_per_s, c[i].pct, c[i].req_per_s, *cap), alone.p99};
      if (c[i - 1].p99_ms && c[i].p99_ms)
        f.p99 = lerp_points(c[i - 1].pct, *c[i - 1].p99_ms, c[i].pct, *c[i].p99_ms, *cap);
      out.notes.push_back({ModelNote::Kind::curve_at_cap, {}, {*cap}});
      return f;
    }
  }
  out.notes.push_back({ModelNote::Kind::curve_highest, {}, {c.back().pct}});
  return {c.back().req_per_s, c.back().p99_ms ? c.back().p99_ms : alone.p99};
}

}  // namespace

// The SM-share curve gives the shape, the steady window alone the level of req/s: the sweep's points and
// the window are separate runs, and where they disagree (mlp-b8: 7094 req/s at the curve's 100%, 6156 in
// the window; the copies' grid and verify measured 5900-6200 alone) the curve is scaled to the window.
// p99 keeps the curve's own figure: the tail of a short run is noisier than a ratio can correct.
// The level is the stated baseline's (model/profile_baseline.hpp): under MPS the MPS 100% baseline's median
// where the sweep measured it, else the plain one (`p.req_per_s`, rebased on its median by
// rebase_on_baseline); a profile without a baseline keeps its one window, and its notes say nothing new.
Figures at_cap(const ProfileFacts& p, std::optional<int> cap, bool mps, ClientOutcome& out) {
  const size_t first_note = out.notes.size();
  Figures f = curve_at_cap(p, cap, out);
  const ProfileBaseline* base = mps ? mps_planning_baseline(p) : (p.baseline ? &*p.baseline : nullptr);
  const bool mps_base = base && p.mps_baseline && base == &*p.mps_baseline;
  const double level = mps_base ? base->req_per_s : p.req_per_s.value_or(0);
  const auto& c = p.share_curve;
  if (cap && !c.empty() && c.back().pct == 100 && c.back().req_per_s > 0 && level > 0) {
    f.req *= level / c.back().req_per_s;
  } else if (!cap && mps_base) {
    f = {base->req_per_s, base->p99_ms ? base->p99_ms : f.p99};
  }
  if (base) {
    ModelNote note{ModelNote::Kind::baseline};
    note.flag = mps_base;
    out.notes.insert(out.notes.begin() + static_cast<std::ptrdiff_t>(first_note), note);
  }
  return f;
}

// Another GPU (or a MIG slice): Amdahl on the SM-busy share a of its time, the rest (launch, host) not
// scaled. The busy time splits into a compute-bound part, scaled by SMs measured / SMs here, and a
// memory-bound part, scaled by bandwidth measured / bandwidth here, in proportion to its SM activity and
// DRAM share (GPM, the same window): m = DRAM / (SM activity + DRAM). Where either bandwidth is not known
// the busy time scales by the SMs alone, and the note says so.
double gpu_speed(const ProfileFacts& p, SliceCapacity slice, ClientOutcome& out) {
  if (p.gpu_sms <= 0) {
    out.extrapolated = true;
    out.notes.push_back({ModelNote::Kind::gpu_not_in_catalog});
    return 1;
  }
  const bool bandwidth_known = p.gpu_bandwidth_gbs > 0 && slice.bandwidth_gbs > 0;
  const bool same_bandwidth = !bandwidth_known || std::abs(slice.bandwidth_gbs - p.gpu_bandwidth_gbs) < 1e-6;
  if (slice.sms == p.gpu_sms && same_bandwidth) return 1;
  const double a = std::clamp(p.sm_active.value_or(1.0), 0.0, 1.0);
  const double d = bandwidth_known ? std::clamp(p.dram_bw.value_or(0.0), 0.0, 1.0) : 0.0;
  const double m = a + d > 0 ? d / (a + d) : 0.0;
  const double sm_time = static_cast<double>(p.gpu_sms) / std::max(1, slice.sms);
  const double memory_time = bandwidth_known ? p.gpu_bandwidth_gbs / slice.bandwidth_gbs : 1.0;
  const double speed = 1.0 / ((1 - a) + a * ((1 - m) * sm_time + m * memory_time));
  out.extrapolated = true;
  out.notes.push_back({ModelNote::Kind::gpu_scaled, {slice.bandwidth_gbs, p.gpu_bandwidth_gbs, m, a, speed},
                       {p.gpu_sms, slice.sms}, bandwidth_known});
  return speed;
}

std::string grid_mode(Sharing s) {
  return std::string(measurement_key(s == Sharing::mps ? Sharing::mps : Sharing::time_slicing));
}


bool has_grid(const ProfileFacts& p, Sharing sharing) {
  const std::string mode = grid_mode(sharing);
  return std::any_of(p.grid.begin(), p.grid.end(), [&](const ProfileGridPoint& g) { return g.mode == mode; });
}

std::optional<Figures> from_grid(const ProfileFacts& p, Sharing sharing, double k, ClientOutcome& out) {
  std::vector<ProfileGridPoint> pts;
  for (const auto& g : p.grid) {
    if (g.mode == grid_mode(sharing)) pts.push_back(g);
  }
  if (pts.empty()) return std::nullopt;
  std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.k < b.k; });
  // A replica is one of the K copies: its p99 is the median copy's where every cell measured one (each
  // copy's own tail; issue 37's 16 decode loops on an H200 ran 85-106 ms where the worst copy of the grid's 16
  // had 134), and the SLO check reads the worst copy's (worst_copy_ratio).
  const bool median = std::all_of(pts.begin(), pts.end(), [](const auto& g) { return g.median_p99_ms.has_value(); });
  const auto tail = [&](const ProfileGridPoint& g) { return median ? g.median_p99_ms : g.worst_p99_ms; };
  Figures agg;
  std::optional<double> worst;
  if (k <= pts.front().k) {
    agg = {pts.front().aggregate_req_per_s * k / pts.front().k, tail(pts.front())};
    worst = pts.front().worst_p99_ms;
    if (k < pts.front().k) out.extrapolated = true;
  } else if (k > pts.back().k) {
    const auto& last = pts.back();
    const double slope =
        pts.size() > 1 ? std::max(0.0, (last.aggregate_req_per_s - pts[pts.size() - 2].aggregate_req_per_s) /
                                           (last.k - pts[pts.size() - 2].k))
                       : last.aggregate_req_per_s / last.k;
    agg.req = last.aggregate_req_per_s + slope * (k - last.k);
    if (tail(last)) agg.p99 = *tail(last) * k / last.k;
    if (last.worst_p99_ms) worst = *last.worst_p99_ms * k / last.k;
    out.extrapolated = true;
    out.notes.push_back({ModelNote::Kind::grid_beyond, {0, k}, {static_cast<int>(std::lround(k)), last.k}});
  } else {
    for (size_t i = 1; i < pts.size(); ++i) {
      if (k > pts[i].k) continue;
      agg.req = lerp_points(pts[i - 1].k, pts[i - 1].aggregate_req_per_s, pts[i].k, pts[i].aggregate_req_per_s, k);
      if (tail(pts[i - 1]) && tail(pts[i])) agg.p99 = lerp_points(pts[i - 1].k, *tail(pts[i - 1]), pts[i].k, *tail(pts[i]), k);
      if (pts[i - 1].worst_p99_ms && pts[i].worst_p99_ms) {
        worst = lerp_points(pts[i - 1].k, *pts[i - 1].worst_p99_ms, pts[i].k, *pts[i].worst_p99_ms, k);
      }
      break;
    }
  }
  if (!out.extrapolated) out.notes.push_back({ModelNote::Kind::grid_cell, {0, k}, {static_cast<int>(std::lround(k))}});
  if (median && agg.p99 && *agg.p99 > 0 && worst) {
    out.worst_copy_ratio = std::max(1.0, *worst / *agg.p99);
    // Into the grid's own note, where this call wrote one (none below the grid's smallest K).
    const bool noted = !out.notes.empty() && (out.notes.back().kind == ModelNote::Kind::grid_cell ||
                                              out.notes.back().kind == ModelNote::Kind::grid_beyond);
    if (noted) out.notes.back().x[0] = out.worst_copy_ratio;
  }
  return Figures{agg.req / k, agg.p99 ? agg.p99 : p.p99_ms};
}

}  // namespace gpupack
