#include "model/profile_prediction.hpp"

#include <algorithm>
#include <cmath>

#include "model/dram_sensitivity.hpp"
#include "model/host_cpu_grid.hpp"
#include "model/kernel_share_stretch.hpp"
#include "model/profile_alone.hpp"
#include "model/profile_baseline.hpp"
#include "model/saturation_wait.hpp"
#include "model/slice_contention.hpp"

namespace gpupack {

namespace {


// Below saturation the DRAM still queues: the share of its time a request waits on memory (its own DRAM
// share) stretches with what its neighbours draw, x (1 + 0.4 own x others') (fitted with k).
double memory_queueing(double own_dram, double others_dram, const ModelParameters& m) {
  return 1 + m.dram_queueing * own_dram * std::max(0.0, others_dram);
}

// The part of a request during which its kernels run (`exposed`) waits `contention` times as long, the rest
// (launch, host) does not; memory queueing stretches the whole.
double kernel_slowdown(double exposed, double contention, double memory) {
  return ((1 - exposed) + exposed * contention) * memory;
}

// The coefficient from the profile's own MPS grid (its largest K): what the copies lost per copy beyond
// their SM contention, per other client and per unit of the share of time no kernel runs; else the default.
// None (0 from the grid) where the copies kept at least what the slowest run of the baseline its prediction
// rests on kept of the median alone: a loss no larger than the program's own run-to-run noise is not a
// measured cost. bert-base-b4's H200 grid kept 0.88 a copy at K=4 with its MPS baseline runs 0.80-1.15 of
// their median, and the cost read from it (0.06 a client, x1.6 beside 15 clients) predicted it 2x slower than
// it ran in every inference mix of runs 64-91 (docs/decisions.md, "A launch cost within the baseline's noise").
struct LaunchCost {
  double per_client = 0;
  bool from_grid = false;
  std::optional<double> kept_within_noise = std::nullopt;  // the copies' share kept, where within the noise
  double slowest_run = 0;                                   // the slowest baseline run's share of the median
  int k = 0;                                                // the grid's largest K
};
LaunchCost launch_cost_per_client(const ProfileFacts& p, double exposed, double dram_per_copy,
                                  const ModelParameters& m) {
  const ProfileGridPoint* one = nullptr;
  const ProfileGridPoint* most = nullptr;
  for (const auto& g : p.grid) {
    if (g.mode != measurement_key(Sharing::mps)) continue;
    if (g.k == 1) one = &g;
    if (g.k > 1 && (!most || g.k > most->k)) most = &g;
  }
  const double idle = 1 - exposed;
  if (!one || !most || one->aggregate_req_per_s <= 0 || most->aggregate_req_per_s <= 0 || idle < m.launch_cost_min_idle) {
    return {m.mps_launch_cost_per_client, false};
  }
  const double kept = most->aggregate_req_per_s / most->k / one->aggregate_req_per_s;
  if (const ProfileBaseline* b = mps_planning_baseline(p); b && b->req_low && kept >= *b->req_low) {
    return {0.0, true, kept, *b->req_low, most->k};
  }
  const double contention = std::max(1.0, most->k * effective_sm_activity(p));
  const double memory = memory_queueing(dram_per_copy, (most->k - 1) * dram_per_copy, m);
  const double slowed = kernel_slowdown(exposed, contention, memory);
  return {std::clamp((1 / (kept * slowed) - 1) / ((most->k - 1) * idle), 0.0, m.launch_cost_from_grid_max), true};
}

// What slows a client under MPS beside the other clients of its slice: its kernels' contention for the SMs
// (or the DRAM bandwidth) and the memory queueing, and the shared launch path.
struct MpsSlowdown {
  double sm_pressure = 0, burst = 0, contention = 1, memory = 1, slowed = 1;
  std::optional<KernelStretch> stretch;
  double launch = 1, launch_per_client = 0, launch_others = 0;
  bool launch_from_grid = false;
  LaunchCost launch_cost;
};
MpsSlowdown mps_slowdown(const ProfileFacts& p, const std::vector<contention::Activity>& acts, size_t i,
                         double dram_sum, int slice_clients, const ModelParameters& m) {
  // Contention: the SMs (or the DRAM bandwidth) are oversubscribed when the pressure on the client's SMs (its
  // own footprint and its neighbours', by kernel width) or the summed DRAM shares pass 1, and the part of a
  // request during which its kernels run waits that much longer; the rest does not.
  const contention::Activity& own = acts[i];
  const double own_dram = own.processes > 0 ? own.dram / own.processes : own.dram;
  MpsSlowdown s;
  s.sm_pressure = contention::pressure(acts, i);
  s.burst = contention::burst_wait(acts, i, m);
  s.contention = std::max({1.0, s.sm_pressure, dram_sum}) + s.burst;
  s.memory = memory_queueing(own_dram, dram_sum - own_dram, m);
  // Where its SM-share curve measured its kernels, they run as long as the curve says at the share of the SMs
  // the contention leaves them, not `contention` times as long (model/kernel_share_stretch.hpp).
  s.stretch = curve_kernel_stretch(p, own.cap, s.contention, m.steady_kernel_share);
  s.slowed = kernel_slowdown(own.exposed, s.stretch ? s.stretch->stretch : s.contention, s.memory);
  // Every launch also waits in the shared launch path. The clients are closed loops (the next request when the
  // last one is answered), so what slows their req/s lengthens their requests: p99 grows by the same factor
  // (measured on two of three H100 machines; docs/decisions.md). A cost from its own grid counts the
  // neighbours as copies of it by their SM activity; the fitted default was fitted per process
  // (contention::copy_equivalents).
  const LaunchCost cost = launch_cost_per_client(p, own.exposed, own_dram, m);
  s.launch_cost = cost;
  s.launch_per_client = cost.per_client;
  s.launch_from_grid = cost.from_grid;
  s.launch_others = cost.from_grid ? contention::copy_equivalents(acts, i) : slice_clients - 1;
  s.launch = 1 + cost.per_client * s.launch_others * (1 - own.exposed);
  return s;
}

// A closed loop's mean request time is 1 / req/s: beside neighbours its tail beyond that mean is capped
// (colocated_tail_ratio, colocated_tail_excess x its own request time alone under its cap).
double colocated_tail_cap(double req, double own_request_ms, const ModelParameters& m) {
  const double mean_ms = 1000.0 / req;
  return std::min(m.colocated_tail_ratio * mean_ms, mean_ms + m.colocated_tail_excess * own_request_ms);
}

// What the model itself predicts for one of the profile's neighbour cells: the program alone at 100% under
// MPS beside a neighbour whose kernels run all the time on its cap of the SMs (the triad, the GEMM), drawing
// the others' DRAM share the cell measured; the SM contention, memory queueing, launch path and tail cap of
// a slice of two clients, as client_figures below counts them. Its req/s and p99 factors against alone.
DramCellModel modelled_cell(const ProfileFacts& p, const ProfileDramPoint& d, const ModelParameters& m) {
  const double a = effective_sm_activity(p);
  const double exposed = kernel_exposed_share(p);
  const double own_dram = p.dram_bw.value_or(0.0);
  const double neighbour_sm = d.neighbour_cap ? *d.neighbour_cap / 100.0 : 1.0;
  const double contention = std::max({1.0, a + neighbour_sm, own_dram + d.others_dram});
  const auto stretch = curve_kernel_stretch(p, 1.0, contention, m.steady_kernel_share);
  const double slowed =
      kernel_slowdown(exposed, stretch ? stretch->stretch : contention, memory_queueing(own_dram, d.others_dram, m));
  const LaunchCost cost = launch_cost_per_client(p, exposed, own_dram, m);
  // One neighbour; a grid's cost counts it as a copy by its SM activity, as client_figures does.
  const double copies = cost.from_grid && a > 0 ? std::min(1.0, neighbour_sm / a) : 1.0;
  const double launch = 1 + cost.per_client * copies * (1 - exposed);
  const double factor = slowed * std::max(1.0, launch);
  DramCellModel out{factor, factor};
  if (p.req_per_s && *p.req_per_s > 0 && p.p99_ms && *p.p99_ms > 0) {
    const double capped = colocated_tail_cap(*p.req_per_s / factor, 1000.0 / *p.req_per_s, m);
    out.p99_factor = std::min(*p.p99_ms * factor, capped) / *p.p99_ms;
  }
  return out;
}

// The model of a neighbour cell with the DRAM residual the profile's other cells measured at its draw: what
// a cell beside a neighbour that can hold every SM measured beyond it is the wait for the SMs.
DramCellModel modelled_cell_with_dram(const ProfileFacts& p, const ProfileDramPoint& d, const ModelParameters& m) {
  DramCellModel out = modelled_cell(p, d, m);
  const ModelledCell base = [&](const ProfileDramPoint& e) { return modelled_cell(p, e, m); };
  if (const auto r = measured_dram_residual(p, d.others_dram, base)) {
    out.req_factor *= r->req_factor;
    out.p99_factor *= r->p99_factor;
  }
  return out;
}

void add_saturation_wait(const ProfileFacts& p, double others_sm, double overload, Figures& f, ClientOutcome& pred,
                         const ModelParameters& m) {
  if (overload <= 0 || f.req <= 0 || !p.req_per_s || *p.req_per_s <= 0) return;
  const auto wait =
      measured_saturation_wait(p, [&](const ProfileDramPoint& d) { return modelled_cell_with_dram(p, d, m); });
  if (!wait || wait->per_sm <= 0) return;
  const double wait_ms = wait->per_sm * overload * 1000.0 / *p.req_per_s;
  f.req = 1000.0 / (1000.0 / f.req + wait_ms);
  if (f.p99) *f.p99 += wait_ms;
  // Carried on the SMs' overload, not on the others' whole activity (contention::sm_overload): beside
  // neighbours that leave SMs free most of the time it waits little (run81). More SM activity beside it than
  // its cell measured: grown with the overload (runs 54 and 58 found 1-3 dlrm-b4096 so), but not measured.
  const bool beyond = others_sm > wait->measured_sm + 0.05;
  pred.extrapolated = pred.extrapolated || beyond;
  pred.notes.push_back(
      {ModelNote::Kind::saturation_wait, {others_sm, wait_ms, wait->per_sm, wait->measured_sm, overload}, {}, beyond});
  // Each request waits for them, so the wait makes its requests more alike, not less: its slowest run past the
  // rest by no more than in its cell beside such a neighbour, its least wait of the kind, whether counted in ms
  // (SaturationWait::tail_excess_ms, as a cap keeps its tail's excess: profile_alone.cpp, cap_to) or as a share
  // of its request (tail_ratio). So its mean request is no shorter than its p99 less the one or over the other.
  // The p99 stands (runs 85-100: within -5..+3% beside three dlrm); what the rest of the model gives its tail
  // beside neighbours is more than such requests spread.
  if (f.p99 && *f.p99 > 0 && wait->tail_excess_ms && wait->tail_ratio && *wait->tail_ratio >= 1) {
    const double by_excess = *f.p99 - *wait->tail_excess_ms, by_ratio = *f.p99 / *wait->tail_ratio;
    const double most = 1000.0 / std::max(by_excess, by_ratio);
    if (most < f.req) {
      pred.notes.push_back({ModelNote::Kind::saturation_tail, {*wait->tail_excess_ms, *wait->tail_ratio, most, f.req}});
      f.req = most;
    }
  }
}

bool copies_of_one(const std::vector<PredictionInput>& clients) {
  for (const auto& c : clients) {
    if (c.workload != clients.front().workload || c.replicas != 1) return false;
  }
  return clients.size() > 1;
}

// The wait for a core with `processes` client processes on the node's `cores` (more processes than cores):
// from the profile's co-location grid where it measured copies past its host's cores (model/host_cpu_grid.hpp),
// else the fitted `core_wait_ms` per full set of cores, marked extrapolated.
void add_core_wait(const ProfileFacts& p, int processes, double cores, int slice_clients, double& p99,
                   ClientOutcome& pred, const ModelParameters& m) {
  if (const auto measured = measured_core_wait(p)) {
    const double wait = measured->wait_ms(processes, cores);
    p99 += wait;
    // Other cores or more processes than the grid ran: its per-copy growth carried over (scaled to the cores).
    if (!measured->measured_at(processes, cores)) pred.extrapolated = true;
    pred.notes.push_back({ModelNote::Kind::core_wait,
                          {cores, wait, measured->ms_per_copy, measured->cores, static_cast<double>(measured->below_k),
                           static_cast<double>(measured->past_k)},
                          {processes, slice_clients},
                          true});
    return;
  }
  const double waits = std::floor(processes / cores);
  p99 += waits * m.core_wait_ms;
  // Fitted on resnet18-b1's density searches, not measured for this workload: its profile has no
  // co-location grid past its host's cores (the grid's measured p99 is used where it has one).
  pred.extrapolated = true;
  pred.notes.push_back({ModelNote::Kind::core_wait, {cores, waits * m.core_wait_ms}, {processes, slice_clients}});
}

// Without a profile: p99 alone (or its share of the SLO) x the synthetic inflation; no note of its own
// (explain_outcome says so from the source).
ClientOutcome synthetic(const PredictionInput& c, const ModelParameters& m) {
  ClientOutcome out;
  out.source = kSyntheticSource;
  const Workload& w = *c.workload;
  if (w.latency_slo_ms) out.p99_ms = w.p99_alone_ms.value_or(default_p99_alone_ms(*w.latency_slo_ms, m)) * c.synthetic_inflation;
  return out;
}

}  // namespace

std::vector<ClientOutcome> client_figures(Sharing sharing, SliceCapacity slice, double slice_throughput,
                                          const std::vector<PredictionInput>& clients, const ModelParameters& m) {
  std::vector<contention::Activity> acts;
  double dram_sum = 0;
  for (const auto& c : clients) {
    acts.push_back(contention::activity(c, slice));
    dram_sum += acts.back().dram;
  }
  const bool grid_case = copies_of_one(clients) && clients.front().workload->profile;
  int slice_clients = 0;  // processes on the slice: every replica is one
  for (const auto& c : clients) slice_clients += c.replicas;
  std::vector<ClientOutcome> out;
  for (const auto& c : clients) {
    const ProfileFacts* p = c.workload->profile.get();
    if (!p) {
      out.push_back(synthetic(c, m));
      continue;
    }
    ClientOutcome pred;
    pred.source = kProfileSource;
    std::optional<Figures> f;
    // The req/s its host CPU is counted at: the prediction before the MPS launch path (below), whose wait is
    // spent in the client's own CUDA calls on its core, so it frees no CPU (docs/decisions.md, "Host CPU").
    std::optional<double> cpu_req;
    if (grid_case && (sharing == Sharing::mps || sharing == Sharing::time_slicing)) {
      f = from_grid(*p, sharing, static_cast<int>(clients.size()), pred);
    } else if (sharing == Sharing::time_slicing && c.replicas == 1) {
      // Time-slicing gives every busy context its turn, as long as it has work: the client's own K-curve,
      // each neighbour of another kind counted as copies of it by its busy time over the client's (issue 36,
      // item 6; contention::busy_copies), where its profile measured one; the note says so.
      const size_t i = static_cast<size_t>(&c - clients.data());
      f = from_grid(*p, sharing, 1 + contention::busy_copies(acts, i), pred);
      if (f && !pred.notes.empty()) pred.notes.back().flag = !grid_case;
    }
    if (!f) {
      f = at_cap(*p, sharing == Sharing::mps ? c.cap_pct : std::nullopt, sharing == Sharing::mps, pred);
      if (sharing == Sharing::mps && slice_clients > 1) {
        const double own_request_ms =
            f->req > 0 ? 1000.0 / f->req : 0;  // under its cap, before the neighbours' waits
        const size_t i = static_cast<size_t>(&c - clients.data());
        const contention::Activity& own = acts[i];
        const MpsSlowdown s = mps_slowdown(*p, acts, i, dram_sum, slice_clients, m);
        if (s.stretch) {
          pred.extrapolated = pred.extrapolated || s.stretch->below_curve;
          pred.notes.push_back({ModelNote::Kind::curve_kernel_stretch,
                                {100 * s.stretch->share, s.stretch->stretch, s.contention},
                                {s.stretch->from_pct, s.stretch->to_pct},
                                s.stretch->below_curve});
        }
        if (const auto demand = grid_gpu_demand(*p)) {
          pred.notes.push_back({ModelNote::Kind::grid_gpu_demand,
                                {demand->demand, p->sm_active.value_or(0.0), demand->plateau_req_per_s},
                                {demand->grew_to_k, demand->flat_at_k}});
        }
        pred.notes.push_back({ModelNote::Kind::contention,
                              {s.sm_pressure, dram_sum, s.burst, s.contention, own.exposed, s.memory, s.slowed}});
        scale_figures(*f, 1.0 / s.slowed);
        cpu_req = f->req;
        if (s.launch > 1) {
          scale_figures(*f, 1.0 / s.launch);
          pred.notes.push_back(
              {ModelNote::Kind::launch_path, {s.launch, s.launch_per_client, s.launch_others}, {slice_clients}, s.launch_from_grid});
        } else if (const auto kept = s.launch_cost.kept_within_noise) {
          pred.notes.push_back({ModelNote::Kind::launch_within_noise, {*kept, s.launch_cost.slowest_run}, {s.launch_cost.k, 0}});
        }
        // The tail beside neighbours, capped (colocated_tail_cap).
        const bool cores_stated = slice.host_cores > 0;
        if (f->p99 && f->req > 0 && c.replicas == 1 &&
            (cores_stated || slice_clients <= m.tail_cap_max_clients)) {
          const double mean_ms = 1000.0 / f->req;
          const double capped = colocated_tail_cap(f->req, own_request_ms, m);
          if (*f->p99 > capped) {
            pred.notes.push_back({ModelNote::Kind::tail_capped, {*f->p99 / mean_ms, capped / mean_ms}, {},
                                  capped < m.colocated_tail_ratio * mean_ms});
            f->p99 = capped;
          }
        }
        // Beside others drawing DRAM bandwidth it also loses what its profile measured beside its neighbour at
        // that draw over what the model predicts there (model/dram_sensitivity.hpp): a latency-bound gather
        // (dlrm-b4096) loses to the triad's bandwidth on top of the SMs it shares with the rest of the mix.
        const double others_dram = dram_sum - acts[i].dram / std::max(1, acts[i].processes);
        if (const auto r = measured_dram_residual(*p, others_dram, [&](const ProfileDramPoint& d) {
              return modelled_cell(*p, d, m);
            })) {
          f->req /= r->req_factor;
          if (f->p99) *f->p99 *= r->p99_factor;
          pred.extrapolated = pred.extrapolated || r->beyond;
          pred.notes.push_back({ModelNote::Kind::dram_measured,
                                {others_dram, r->req_factor, r->p99_factor, r->measured_others},
                                {r->pooled ? 1 : 0, 0},
                                r->beyond});
        }
        // Beside neighbours that can hold every SM its kernels wait for them: what its profile's cell beside
        // such a neighbour measured beyond the rest of the model, per unit of SM activity, times how far they
        // and it go past every SM (additive: the wait is per kernel, whatever the rest of its request does;
        // model/saturation_wait.hpp). Not for a
        // program whose kernels fill the GPU while they run (at the share at which the GPU counts as full):
        // it is of the saturating kind, and beside its like it shares the SMs as the contention above counts
        // (dlrm-b4096, width 0.96, ran x2.3 slower beside two copies in its grid, the contention says x2.24);
        // what its cell measured beyond the model beside the triad at 100% is the DRAM near saturation
        // (run61: read as a wait it predicted dlrm beside two copies and bert 9 ms, over its SLO less margin).
        if (own.width < m.host_cpu_knee_full_cores) {
          add_saturation_wait(*p, contention::others_filling_sm(acts, i), contention::sm_overload(acts, i), *f, pred, m);
        }
        // Every client process of the node competes for the node's cores, whatever GPU or MIG instance it
        // runs on (issue 37): the node's figures where the plan knows them, else the slice's.
        const double cores = slice.node_cores > 0 ? slice.node_cores : slice.host_cores;
        const int processes = std::max(slice_clients, slice.node_processes);
        if (f->p99 && cores_stated && processes > cores) {
          add_core_wait(*p, processes, cores, slice_clients, *f->p99, pred, m);
        }
        // As many processes as its own copies in its grid: at most their rate a copy and at least their median
        // copy's tail (neighbours of other kinds counted as copies).
        if (const auto rate = grid_per_copy_rate(*p, processes); rate && rate->req_per_s < f->req) {
          f->req = rate->req_per_s;
          pred.notes.push_back({ModelNote::Kind::grid_rate, {rate->req_per_s, static_cast<double>(rate->k_largest)},
                                {processes, slice_clients}});
        }
        if (f->p99) {
          if (const auto tail = grid_median_p99(*p, processes); tail && tail->p99_ms > *f->p99) {
            f->p99 = tail->p99_ms;
            pred.extrapolated = pred.extrapolated || tail->extrapolated;
            pred.notes.push_back({ModelNote::Kind::grid_tail, {tail->p99_ms, static_cast<double>(tail->k_largest)},
                                  {processes, slice_clients}, tail->extrapolated});
          }
        }
      } else if (sharing == Sharing::time_slicing || sharing == Sharing::streams || c.replicas > 1) {
        // No K-curve in the profile for this sharing: the synthetic model's slowdown and inflation.
        f->req *= slice_throughput;
        if (f->p99) *f->p99 *= c.synthetic_inflation;
        pred.notes.push_back({ModelNote::Kind::synthetic_slowdown, {1.0 / std::max(1e-9, slice_throughput)}});
      }
    }
    // Its host CPU at the predicted rate: the CPU time of a request alone (spin-waits included, so at most
    // what the request needs) times the requests it makes here. Not scaled down by the launch path's wait
    // (cpu_req): a decode loop at batch 1 (issue 37) ran 16 copies at its rate alone on 16 cores where the
    // launch path predicted x2 slower, and counting its cores at that rate planned 30 on 16 cores.
    // Where its MPS grid measured the knee of the host's cores, each copy counts the cores over the copies
    // they drove there, whatever its predicted rate: on small MIG instances the model predicts SM contention
    // that slows each copy, which at its rate counted as less than a core and placed 17-19 decode loops on 16
    // cores (issue 37); the knee measured what the copies needed with the GPU's contention in it.
    if (const auto knee = host_cpu_knee(*p)) {
      pred.host_cores = knee->cores_per_copy();
    } else if (p->host_cpu_cores && p->req_per_s && *p->req_per_s > 0) {
      pred.host_cores = *p->host_cpu_cores * std::min(1.0, cpu_req.value_or(f->req) / *p->req_per_s);
    }
    scale_figures(*f, gpu_speed(*p, slice, pred));
    pred.req_per_s = f->req;
    pred.p99_ms = f->p99;
    out.push_back(std::move(pred));
  }
  return out;
}

double packing_compute(const ProfileFacts& p, const ModelParameters& m) {
  if (p.sm_active && *p.sm_active > 0) return std::min(1.0, *p.sm_active);
  if (const auto share = curve_share(p, m.curve_share_tolerance)) return *share;
  return std::clamp(p.compute_demand, m.min_packing_compute, 1.0);
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
      return lerp_points(c[i - 1].req_per_s, c[i - 1].pct, c[i].req_per_s, c[i].pct, target) / 100.0;
    }
  }
  return c.back().pct / 100.0;
}

}  // namespace gpupack
