#include "planner/profile_prediction.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "planner/node_cores.hpp"
#include "planner/slice_contention.hpp"

namespace gpupack {

namespace {

struct Figures {
  double req = 0;
  std::optional<double> p99;
};

double lerp(double x0, double y0, double x1, double y1, double x) {
  return x1 == x0 ? y1 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

// Figures in notes: two decimals, whole numbers from 10 up.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 10 ? "%.0f" : "%.2f", v);
  return buf;
}

void scale(Figures& f, double speed) {
  f.req *= speed;
  if (f.p99) *f.p99 /= speed;
}

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
Figures curve_at_cap(const ProfileFacts& p, std::optional<int> cap, ClientPrediction& out) {
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
      out.notes.push_back("no SM-share curve: capped at " + std::to_string(*cap) +
                          "% below its SM activity " + num(*p.sm_active) + ", keeps " + num(kept) +
                          " of its req/s, its tail beyond the mean as alone");
    }
    return alone;
  }
  if (*cap < c.front().pct) {
    // Below the lowest point. Where the profile's own rule found the program keeps its req/s at that
    // point (compute demand from the sweep at or below it), it needs no more than that share, and its
    // measured SM activity says how much it needs: it loses work only below that. Otherwise it was
    // already losing work there, and keeps cap / lowest point of it.
    const bool holds_at_lowest = p.compute_method == "sweep" && p.compute_demand <= c.front().pct / 100.0 + 1e-9;
    double need = c.front().pct;
    if (holds_at_lowest && p.sm_active && *p.sm_active > 0) need = std::min(need, 100.0 * *p.sm_active);
    const double kept = std::min(1.0, *cap / need);
    Figures f{c.front().req_per_s, c.front().p99_ms ? c.front().p99_ms : alone.p99};
    if (kept < 1) cap_to(f, kept);
    out.extrapolated = true;
    out.notes.push_back("cap " + std::to_string(*cap) + "% below the SM-share curve's lowest point (" +
                        std::to_string(c.front().pct) + "%): " +
                        (need < c.front().pct ? "it holds its req/s there and keeps " + num(need) + "% of the SMs busy, so keeps " +
                                                    num(kept) + " of its work"
                                              : std::string("scaled in proportion")));
    return f;
  }
  for (size_t i = 1; i < c.size(); ++i) {
    if (*cap <= c[i].pct) {
      Figures f{lerp(c[i - 1].pct, c[i - 1].req_per_s, c[i].pct, c[i].req_per_s, *cap), alone.p99};
      if (c[i - 1].p99_ms && c[i].p99_ms)
        f.p99 = lerp(c[i - 1].pct, *c[i - 1].p99_ms, c[i].pct, *c[i].p99_ms, *cap);
      out.notes.push_back("SM-share curve at " + std::to_string(*cap) + "%");
      return f;
    }
  }
  out.notes.push_back("SM-share curve at its highest point (" + std::to_string(c.back().pct) + "%)");
  return {c.back().req_per_s, c.back().p99_ms ? c.back().p99_ms : alone.p99};
}

// The SM-share curve gives the shape, the steady window alone the level of req/s: the sweep's points and
// the window are separate runs, and where they disagree (mlp-b8: 7094 req/s at the curve's 100%, 6156 in
// the window; the copies' grid and verify measured 5900-6200 alone) the curve is scaled to the window.
// p99 keeps the curve's own figure: the tail of a short run is noisier than a ratio can correct.
Figures at_cap(const ProfileFacts& p, std::optional<int> cap, ClientPrediction& out) {
  Figures f = curve_at_cap(p, cap, out);
  const auto& c = p.share_curve;
  if (cap && !c.empty() && c.back().pct == 100 && c.back().req_per_s > 0 && p.req_per_s && *p.req_per_s > 0) {
    f.req *= *p.req_per_s / c.back().req_per_s;
  }
  return f;
}

// Another GPU (or a MIG slice): Amdahl on the SM-busy share a of its time, the rest (launch, host) not
// scaled. The busy time splits into a compute-bound part, scaled by SMs measured / SMs here, and a
// memory-bound part, scaled by bandwidth measured / bandwidth here, in proportion to its SM activity and
// DRAM share (GPM, the same window): m = DRAM / (SM activity + DRAM). Where either bandwidth is not known
// the busy time scales by the SMs alone, and the note says so.
double gpu_speed(const ProfileFacts& p, SliceCapacity slice, ClientPrediction& out) {
  if (p.gpu_sms <= 0) {
    out.extrapolated = true;
    out.notes.push_back("measured on a GPU not in the catalog: not scaled");
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
  std::string note = "measured on " + (p.gpu_model.empty() ? std::string("another GPU") : p.gpu_model) +
                     " (" + std::to_string(p.gpu_sms) + " SMs), scaled to " + std::to_string(slice.sms) +
                     " SMs";
  note += bandwidth_known ? " and " + num(slice.bandwidth_gbs) + " GB/s (from " + num(p.gpu_bandwidth_gbs) +
                                "; memory-bound share " + num(m) + " of its busy time)"
                          : " (memory bandwidth not known: not scaled)";
  out.notes.push_back(note + " by its SM activity " + num(a) + ": x" + num(speed) + " req/s");
  return speed;
}

std::string grid_mode(Sharing s) {
  return s == Sharing::mps ? "mps" : "timeslicing";
}

// K copies of one workload from its co-location grid; none when the grid has no cells for the sharing.
std::optional<Figures> from_grid(const ProfileFacts& p, Sharing sharing, int k, ClientPrediction& out) {
  std::vector<ProfileGridPoint> pts;
  for (const auto& g : p.grid) {
    if (g.mode == grid_mode(sharing)) pts.push_back(g);
  }
  if (pts.empty()) return std::nullopt;
  std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.k < b.k; });
  const std::string where = grid_mode(sharing) + " K=" + std::to_string(k);
  Figures agg;
  if (k <= pts.front().k) {
    agg = {pts.front().aggregate_req_per_s * k / pts.front().k, pts.front().worst_p99_ms};
    if (k < pts.front().k) out.extrapolated = true;
  } else if (k > pts.back().k) {
    const auto& last = pts.back();
    const double slope =
        pts.size() > 1 ? std::max(0.0, (last.aggregate_req_per_s - pts[pts.size() - 2].aggregate_req_per_s) /
                                           (last.k - pts[pts.size() - 2].k))
                       : last.aggregate_req_per_s / last.k;
    agg.req = last.aggregate_req_per_s + slope * (k - last.k);
    if (last.worst_p99_ms) agg.p99 = *last.worst_p99_ms * k / last.k;
    out.extrapolated = true;
    out.notes.push_back(where + " beyond the grid's K=" + std::to_string(last.k) +
                        ": aggregate extended along its last step, p99 grown in proportion to K");
  } else {
    for (size_t i = 1; i < pts.size(); ++i) {
      if (k > pts[i].k) continue;
      agg.req = lerp(pts[i - 1].k, pts[i - 1].aggregate_req_per_s, pts[i].k, pts[i].aggregate_req_per_s, k);
      if (pts[i - 1].worst_p99_ms && pts[i].worst_p99_ms) {
        agg.p99 = lerp(pts[i - 1].k, *pts[i - 1].worst_p99_ms, pts[i].k, *pts[i].worst_p99_ms, k);
      }
      break;
    }
  }
  if (!out.extrapolated) out.notes.push_back("co-location grid, " + where);
  return Figures{agg.req / k, agg.p99 ? agg.p99 : p.p99_ms};
}

// The MPS launch path: every client's kernel launches go through one MPS server and the GPU's work
// distributor, so with N clients each launch also waits behind the others' (iGniter's t_sched, which grows
// with the number of co-located models). A client spends the share of its time no kernel of it runs there.
// 1 + 0.10 x (N - 1) x (1 - exposed share), fitted with the pressure above and the DRAM queueing below on
// every slice `gpupack verify` measured on H100s (results/verify-profiled-h100/run1-6,
// verify-issue15-h100, verify-h100) and the MPS grids of results/grid-h100 (docs/decisions.md gives
// the errors). A profile with an MPS co-location grid gives its own coefficient.
constexpr double kMpsLaunchCostPerClient = 0.10;
constexpr double kDramQueueing = 0.4;

// Beside busy MPS neighbours a client's p99 is at most 1.3 x its mean request time. Alone, a launch-bound
// client's tail is long (resnet18-b1: p99 2.3-2.8 x its mean on an otherwise idle H100); in every slice
// measured without shared stalls (verify/shared_stalls.hpp) its p99 was 1.1-1.8 x its mean, whatever the
// ratio alone, while mlp-b8 (1.3 alone) and the GEMM (1.2) kept theirs (docs/decisions.md, "Tail").
// And the tail beyond the mean is the client's own: at most 0.4 x its request time under its cap alone. The
// waits its neighbours add (SM contention, the launch path) lengthen every request alike, so they stretch
// the mean, not the excess: over the recorded stall-free resnet18-b1 replicas p99 / mean was 1.23-1.44
// with 7 clients and no SM contention (slowed x1.38) but 1.08-1.17 with 9-16 clients (slowed x1.8-2.4);
// 0.4 keeps the 1.3 up to a slowdown of 1.33 (docs/decisions.md, "Tail").
constexpr double kColocatedTailRatio = 1.3;
constexpr double kColocatedTailExcess = 0.4;
// Without the node's cores (fleet cpu_cores) the cap holds up to the most client processes on a slice
// where it was measured with a 16-core host (15 resnets and the GEMM); past it the tail alone is kept.
constexpr int kTailCapMaxClients = 16;
// With the cores stated, more client processes than cores add a wait for a core to every tail, one per
// full set of cores they take (floor(processes / cores)): the CUDA runtime spin-waits on the GPU, so every
// client stays runnable, and one whose request needs the CPU waits for a scheduler slice (3 ms by default
// on 8 or more CPUs) behind each client sharing its core. Beside the GEMM the worst resnet18-b1 p99 at
// 19-24 clients on 16 cores was 3.8-7.3 ms above its mean + own excess on the quiet machines (density
// searches of runs 6, 8, 16 and 21), at 15 within 0-2.8 ms; on machine r (run 22) it held 16.1 ms up to
// 30 clients and jumped to 20.4 at 31, 32 processes (docs/decisions.md, "Host CPU").
constexpr double kCoreWaitMs = 4.0;

// Below saturation the DRAM still queues: the share of its time a request waits on memory (its own DRAM
// share) stretches with what its neighbours draw, x (1 + 0.4 own x others') (fitted with k).
double memory_queueing(double own_dram, double others_dram) {
  return 1 + kDramQueueing * own_dram * std::max(0.0, others_dram);
}

// The coefficient from the profile's own MPS grid (its largest K): what the copies lost per copy beyond
// their SM contention, per other client and per unit of the share of time no kernel runs; else the default.
double launch_cost_per_client(const ProfileFacts& p, double exposed, double dram_per_copy) {
  const ProfileGridPoint* one = nullptr;
  const ProfileGridPoint* most = nullptr;
  for (const auto& g : p.grid) {
    if (g.mode != "mps") continue;
    if (g.k == 1) one = &g;
    if (g.k > 1 && (!most || g.k > most->k)) most = &g;
  }
  const double idle = 1 - exposed;
  if (!one || !most || one->aggregate_req_per_s <= 0 || most->aggregate_req_per_s <= 0 || idle < 0.05) {
    return kMpsLaunchCostPerClient;
  }
  const double kept = most->aggregate_req_per_s / most->k / one->aggregate_req_per_s;
  const double contention = std::max(1.0, most->k * p.sm_active.value_or(0.0));
  const double memory = memory_queueing(dram_per_copy, (most->k - 1) * dram_per_copy);
  const double slowed = ((1 - exposed) + exposed * contention) * memory;
  return std::clamp((1 / (kept * slowed) - 1) / ((most->k - 1) * idle), 0.0, 0.5);
}

bool copies_of_one(const std::vector<PredictionInput>& clients) {
  for (const auto& c : clients) {
    if (c.workload != clients.front().workload || c.replicas != 1) return false;
  }
  return clients.size() > 1;
}

ClientPrediction synthetic(const PredictionInput& c) {
  ClientPrediction out;
  out.source = "synthetic";
  const Workload& w = *c.workload;
  if (w.latency_slo_ms) out.p99_ms = w.p99_alone_ms.value_or(*w.latency_slo_ms / 2) * c.synthetic_inflation;
  out.notes.push_back("no profile: predictions from the synthetic model");
  return out;
}

}  // namespace

std::vector<ClientPrediction> predict_slice(Sharing sharing, SliceCapacity slice, double slice_throughput,
                                            const std::vector<PredictionInput>& clients) {
  std::vector<contention::Activity> acts;
  double dram_sum = 0;
  for (const auto& c : clients) {
    acts.push_back(contention::activity(c, slice));
    dram_sum += acts.back().dram;
  }
  const bool grid_case = copies_of_one(clients) && clients.front().workload->profile;
  int slice_clients = 0;  // processes on the slice: every replica is one
  for (const auto& c : clients) slice_clients += c.replicas;
  std::vector<ClientPrediction> out;
  for (const auto& c : clients) {
    const ProfileFacts* p = c.workload->profile.get();
    if (!p) {
      out.push_back(synthetic(c));
      continue;
    }
    ClientPrediction pred;
    pred.source = "profile";
    std::optional<Figures> f;
    // The req/s its host CPU is counted at: the prediction before the MPS launch path (below), whose wait is
    // spent in the client's own CUDA calls on its core, so it frees no CPU (docs/decisions.md, "Host CPU").
    std::optional<double> cpu_req;
    if (grid_case && (sharing == Sharing::mps || sharing == Sharing::time_slicing)) {
      f = from_grid(*p, sharing, static_cast<int>(clients.size()), pred);
    }
    if (!f) {
      f = at_cap(*p, sharing == Sharing::mps ? c.cap_pct : std::nullopt, pred);
      if (sharing == Sharing::mps && slice_clients > 1) {
        const double own_request_ms =
            f->req > 0 ? 1000.0 / f->req : 0;  // under its cap, before the neighbours' waits
        // Contention: the SMs (or the DRAM bandwidth) are oversubscribed when the pressure on the client's
        // SMs (its own footprint and its neighbours', by kernel width) or the summed DRAM shares pass 1, and
        // the part of a request during which its kernels run waits that much longer; the rest does not.
        const size_t i = static_cast<size_t>(&c - clients.data());
        const contention::Activity& own = acts[i];
        const double sm_pressure = contention::pressure(acts, i);
        const double burst = contention::burst_wait(acts, i);
        const double contention = std::max({1.0, sm_pressure, dram_sum}) + burst;
        const double own_dram = c.replicas > 0 ? own.dram / c.replicas : own.dram;
        const double memory = memory_queueing(own_dram, dram_sum - own_dram);
        const double slowed = ((1 - own.exposed) + own.exposed * contention) * memory;
        pred.notes.push_back(
            "SM pressure " + num(sm_pressure) + ", DRAM " + num(dram_sum) +
            (burst > 0 ? ", bursts of wider neighbours +" + num(burst) : "") +
            (contention > 1
                 ? ": contention x" + num(contention) + " on its kernel time share " + num(own.exposed)
                 : ": no contention") +
            (memory > 1.005 ? ", memory queueing x" + num(memory) : "") + ": x" + num(slowed));
        scale(*f, 1.0 / slowed);
        cpu_req = f->req;
        // Every launch also waits in the shared launch path. The clients are closed loops (the next request
        // when the last one is answered), so what slows their req/s lengthens their requests: p99 grows by
        // the same factor (measured on two of three H100 machines; docs/decisions.md).
        const double launch =
            1 + launch_cost_per_client(*p, own.exposed, own_dram) * (slice_clients - 1) * (1 - own.exposed);
        if (launch > 1) {
          scale(*f, 1.0 / launch);
          pred.notes.push_back("MPS launch path with " + std::to_string(slice_clients) + " clients: x" +
                               num(launch) + " slower");
        }
        // A closed loop's mean request time is 1 / req/s: the tail beyond it is capped (kColocatedTailRatio,
        // kColocatedTailExcess).
        const bool cores_stated = slice.host_cores > 0;
        if (f->p99 && f->req > 0 && c.replicas == 1 &&
            (cores_stated || slice_clients <= kTailCapMaxClients)) {
          const double mean_ms = 1000.0 / f->req;
          const double mean_plus_own_excess = mean_ms + kColocatedTailExcess * own_request_ms;
          const double capped = std::min(kColocatedTailRatio * mean_ms, mean_plus_own_excess);
          if (*f->p99 > capped) {
            pred.notes.push_back("tail alone " + num(*f->p99 / mean_ms) +
                                 " x its mean request, beside neighbours " + num(capped / mean_ms) + " x" +
                                 (mean_plus_own_excess < kColocatedTailRatio * mean_ms
                                      ? " (its mean + " + num(kColocatedTailExcess) +
                                            " x its request time alone under its cap)"
                                      : ""));
            f->p99 = capped;
          }
        }
        const double cores = slice.node_cores > 0 ? slice.node_cores : slice.host_cores;  // the node's
        const int processes = std::max(slice_clients, slice.node_processes);  // all of the node's slices
        if (f->p99 && cores_stated && processes > cores) {
          const double waits = std::floor(processes / cores);
          *f->p99 += waits * kCoreWaitMs;
          // Fitted on resnet18-b1's density searches, not measured for this workload: its profile has no
          // co-location grid at this K (the grid's measured p99 is used where it has one).
          pred.extrapolated = true;
          pred.notes.push_back(std::to_string(processes) + " client processes on " + num(cores) + " host cores" +
                               (processes > slice_clients
                                    ? " of the node (" + std::to_string(slice_clients) + " on this slice)"
                                    : "") +
                               ": +" + num(waits * kCoreWaitMs) +
                               " ms waiting for a core (fitted on other programs, not measured for this one)");
        }
      } else if (sharing == Sharing::time_slicing || sharing == Sharing::streams || c.replicas > 1) {
        // No K-curve in the profile for this sharing: the synthetic model's slowdown and inflation.
        f->req *= slice_throughput;
        if (f->p99) *f->p99 *= c.synthetic_inflation;
        pred.notes.push_back(std::string(to_string(sharing)) + ": no measured K-curve, synthetic slowdown x" +
                             num(1.0 / std::max(1e-9, slice_throughput)));
      }
    }
    // Its host CPU at the predicted rate: the CPU time of a request alone (spin-waits included, so at most
    // what the request needs) times the requests it makes here. Not scaled down by the launch path's wait
    // (cpu_req): a decode loop at batch 1 (issue 37) ran 16 copies at its rate alone on 16 cores where the
    // launch path predicted x2 slower, and counting its cores at that rate planned 30 on 16 cores.
    if (p->host_cpu_cores && p->req_per_s && *p->req_per_s > 0) {
      pred.host_cores = *p->host_cpu_cores * std::min(1.0, cpu_req.value_or(f->req) / *p->req_per_s);
    }
    scale(*f, gpu_speed(*p, slice, pred));
    pred.req_per_s = f->req;
    pred.p99_ms = f->p99;
    out.push_back(std::move(pred));
  }
  return out;
}

void add_predictions(const Scenario& scenario, Plan& plan) {
  std::vector<PredictionInput> inputs;
  const std::map<std::string, int> node_processes = client_processes_by_node(plan);  // issue 37
  for (auto& g : plan.gpus) {
    const FleetEntry& entry = scenario.fleet[static_cast<size_t>(g.fleet_entry)];
    for (auto& s : g.slices) {
      SliceCapacity capacity = slice_capacity_on(entry, s.profile);
      capacity.node_cores = entry.cpu_cores.value_or(0);
      capacity.node_processes = node_processes.at(g.node);
      inputs.clear();
      for (const auto& c : s.clients) {
        const Workload& w = scenario.workloads[static_cast<size_t>(c.replicas.front().workload)];
        inputs.push_back({&w, static_cast<int>(c.replicas.size()),
                          s.compute_share > 0 ? c.compute / s.compute_share : 1.0,
                          c.mps_active_thread_percentage, c.predicted_p99_inflation});
      }
      std::vector<ClientPrediction> preds =
          predict_slice(s.sharing, capacity, s.predicted_throughput, inputs);
      for (size_t i = 0; i < s.clients.size(); ++i) s.clients[i].prediction = std::move(preds[i]);
    }
  }
}

double packing_compute(const ProfileFacts& p) {
  if (p.sm_active && *p.sm_active > 0) return std::min(1.0, *p.sm_active);
  if (const auto share = curve_share(p)) return *share;
  return std::clamp(p.compute_demand, 0.01, 1.0);
}

std::optional<double> curve_share(const ProfileFacts& p, double tolerance) {
  const auto& c = p.share_curve;
  if (c.empty()) return std::nullopt;
  double best = 0;
  for (const auto& pt : c) best = std::max(best, pt.req_per_s);
  const double target = (1 - tolerance) * best;
  if (c.front().req_per_s >= target) return c.front().pct / 100.0;
  for (size_t i = 1; i < c.size(); ++i) {
    if (c[i].req_per_s >= target) {
      return lerp(c[i - 1].req_per_s, c[i - 1].pct, c[i].req_per_s, c[i].pct, target) / 100.0;
    }
  }
  return c.back().pct / 100.0;
}

}  // namespace gpupack
