#include "planner/slice_state.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/units.hpp"
#include "model/prediction.hpp"

namespace gpupack {

namespace {

// Compute sums are compared with a small tolerance so that e.g. 7 x 1/7 fits a whole GPU.
constexpr double kComputeEpsilon = 1e-9;

// Up to the next multiple of the cap step (5 %), at least one step, at most 100 %.
int cap_step_up(double pct, const ModelParameters& m) {
  const int step = m.mps_cap_step_pct;
  return std::min(100, std::max(step, static_cast<int>(std::ceil(pct / static_cast<double>(step) - 1e-9)) * step));
}

double slice_fraction(const SliceSpec& spec, double compute) {
  return spec.compute_share > 0 ? compute / spec.compute_share : 1.0;
}

// MPS caps: a client without an SLO is capped at its own demand (the neighbour that must not steal);
// one with an SLO gets slo_cap_headroom (twice) its demand as room for bursts, unless that breaks someone's
// SLO.
std::vector<int> mps_caps(const SliceSpec& spec, const std::vector<ClientLoad>& clients, bool tight,
                          const ModelParameters& m) {
  std::vector<int> caps;
  for (const auto& c : clients) {
    const double pct = 100.0 * slice_fraction(spec, c.compute);
    caps.push_back(cap_step_up(c.max_p99_inflation && !tight ? m.slo_cap_headroom * pct : pct, m));
  }
  consumer_mps_caps(spec.consumer, caps);
  return caps;
}

// The clients as the model sees them (model/prediction.hpp), caps to be set under MPS, in a buffer kept
// between calls (the packers ask hundreds of thousands of times per plan).
std::vector<ModelClient>& model_clients(const SliceSpec& spec, const std::vector<ClientLoad>& clients) {
  thread_local std::vector<ModelClient> out;
  out.clear();
  for (const auto& c : clients) out.push_back({c.workload, c.replicas, slice_fraction(spec, c.compute), std::nullopt});
  return out;
}

void set_caps(std::vector<ModelClient>& clients, const std::vector<int>& caps) {
  for (size_t i = 0; i < clients.size(); ++i) clients[i].cap_pct = caps[i];
}

// The slice under MPS with the caps of one setting (mps_caps: `tight`, each client's demand; else room for
// bursts), which it writes to `caps`.
SliceOutcome predict_mps(const SliceSpec& spec, const std::vector<ClientLoad>& clients, bool tight,
                         const ModelParameters& m, PredictionDetail detail, std::vector<int>& caps) {
  std::vector<ModelClient>& asked = model_clients(spec, clients);
  caps = mps_caps(spec, clients, tight, m);
  set_caps(asked, caps);
  return predict({Sharing::mps, spec.capacity}, asked, m, detail);
}

bool breaks_slo(const ClientLoad& client, const ClientOutcome& outcome) {
  return client.max_p99_inflation && outcome.inflation > *client.max_p99_inflation + 1e-9;
}

bool keeps_slos(const std::vector<ClientLoad>& clients, const SliceOutcome& outcome) {
  for (size_t i = 0; i < clients.size(); ++i) {
    if (breaks_slo(clients[i], outcome.clients[i])) return false;
  }
  return true;
}

// One more replica of a group joins its process: one context for all, the tightest SLO of them.
void merge_into(ClientLoad& c, const WorkloadDemand& d, double compute) {
  c.memory_bytes += d.memory_bytes;
  c.compute += compute;
  c.replicas += 1;
  if (d.max_p99_inflation)
    c.max_p99_inflation = std::min(c.max_p99_inflation.value_or(1e300), *d.max_p99_inflation);
  c.intermittent = c.intermittent && d.intermittent;
  c.needs_memory_cap = c.needs_memory_cap || d.isolation == Isolation::memory;
  c.host_cpu += d.host_cpu;
}

ClientLoad new_client(const WorkloadDemand& d, double compute) {
  return ClientLoad{d.group,
                    d.memory_bytes,
                    compute,
                    d.max_p99_inflation,
                    d.intermittent,
                    d.isolation == Isolation::memory,
                    needs_own_slice(d.isolation),
                    1,
                    d.profiled,
                    d.host_cpu,
                    d.entry};
}

}  // namespace

std::uint64_t whole_gpu_memory_bytes(const GpuModel& model, const ModelParameters& m) {
  if (model.mig) {
    double best = 0;
    for (const auto& p : model.mig->profiles) {
      if (p.memory_slices == model.mig->memory_slices) best = std::max(best, p.memory_gib);
    }
    if (best > 0) return gib_to_bytes(best);
  }
  return gib_to_bytes(std::floor(model.memory_gib * m.usable_memory_share * 4) / 4);
}

SliceSpec whole_gpu_spec(const GpuModel& model, CudaVersion cuda, int reference_sms, std::uint64_t overhead,
                         const ModelParameters& m) {
  SliceSpec s;
  s.memory_bytes = whole_gpu_memory_bytes(model, m);
  s.compute_share = 1.0;
  s.mps_client_limit = mps_client_limit(model, cuda);
  s.mps_isolates_memory = mps_isolates_memory(model);
  s.compute_scale = static_cast<double>(reference_sms) / model.sm_count;
  s.context_overhead = overhead;
  s.capacity = slice_capacity(model);
  return s;
}

SliceSpec mig_instance_spec(const GpuModel& model, int profile, CudaVersion cuda, int reference_sms,
                            std::uint64_t overhead, const ModelParameters& m) {
  const MigProfile& p = model.mig->profiles[static_cast<size_t>(profile)];
  SliceSpec s = whole_gpu_spec(model, cuda, reference_sms, overhead, m);
  s.profile = profile;
  s.memory_bytes = gib_to_bytes(p.memory_gib);
  s.compute_share = static_cast<double>(p.sms) / model.sm_count;
  s.mps_client_limit = mps_client_limit_in_instance(model, p, cuda);
  s.capacity = slice_capacity(model, profile);
  return s;
}

SliceEvaluation evaluate_sharing(Sharing sharing, const SliceSpec& spec, const std::vector<ClientLoad>& clients,
                             const ModelParameters& m, PredictionDetail detail) {
  SliceEvaluation e;
  e.sharing = sharing;
  if (sharing == Sharing::mps) {
    static_cast<SliceOutcome&>(e) = predict_mps(spec, clients, false, m, detail, e.mps_caps);
    if (!keeps_slos(clients, e)) static_cast<SliceOutcome&>(e) = predict_mps(spec, clients, true, m, detail, e.mps_caps);
  } else {
    static_cast<SliceOutcome&>(e) = predict({sharing, spec.capacity}, model_clients(spec, clients), m, detail);
  }
  return e;
}

namespace {

// The node's cores (the slice's share of the fleet's cpu_cores) drive its clients: launch-bound clients run
// on host threads. They count their profiles' host CPU at the predicted req/s where the profile model
// predicted them (`e`), else their cores alone, the most they use.
bool fits_host_cores(const SliceSpec& spec, const std::vector<ClientLoad>& clients,
                     const SliceEvaluation* e) {
  if (spec.capacity.host_cores <= 0) return true;
  double used = 0;
  if (e && e->host_cores) {
    used = *e->host_cores;
  } else {
    for (const auto& c : clients) used += c.host_cpu;
  }
  return used <= spec.capacity.host_cores + kComputeEpsilon;
}

// The verdict without the predictions (choose_sharing with `predict` false).
SliceEvaluation unpredicted(Sharing sharing) {
  SliceEvaluation e;
  e.sharing = sharing;
  return e;
}

// Whether the consumer can give these MPS clients what they need (planner/consumer_rules.hpp).
bool fits_consumer(const SliceSpec& spec, const std::vector<ClientLoad>& clients) {
  thread_local std::vector<ClientNeed> needs;
  needs.clear();
  for (const auto& c : clients) {
    needs.push_back({c.memory_bytes + spec.context_overhead, 100.0 * slice_fraction(spec, c.compute)});
  }
  return fits_consumer_mps(spec.consumer, spec.memory_bytes, needs);
}

// choose_slice_sharing, and with `predict` false the same verdict without the predictions where they cannot
// change it: a slice none of whose clients has an SLO keeps every SLO under any sharing. (The packers
// ask hundreds of thousands of times per plan whether a replica may join; the predictions were most of
// that time.)
std::optional<SliceEvaluation> choose_sharing(const SliceSpec& spec, const std::vector<ClientLoad>& clients,
                                              const ModePolicy& policy, const ModelParameters& parameters,
                                              Fit* why, bool predict, PredictionDetail detail) {
  // The NVIDIA plugin's MPS replica: one client alone gets the same share as its neighbours would.
  if (clients.size() == 1 && plugin_mps_replicas(spec.consumer) > 0) {
    if (!fits_consumer(spec, clients) || !fits_host_cores(spec, clients, nullptr)) {
      if (why) *why = fits_consumer(spec, clients) ? Fit::host_cpu : Fit::memory;
      return std::nullopt;
    }
    if (!predict) return unpredicted(Sharing::mps);
    return evaluate_sharing(Sharing::mps, spec, clients, parameters, detail);
  }
  if (clients.size() == 1) {
    const Sharing alone = clients[0].replicas > 1 ? Sharing::streams : Sharing::exclusive;
    if (!fits_host_cores(spec, clients, nullptr)) {
      if (why) *why = Fit::host_cpu;
      return std::nullopt;
    }
    if (!predict) return unpredicted(alone);
    return evaluate_sharing(alone, spec, clients, parameters, detail);
  }
  const bool any_slo = std::any_of(clients.begin(), clients.end(),
                                   [](const ClientLoad& c) { return c.max_p99_inflation.has_value(); });
  bool all_intermittent = true;
  bool needs_cap = false;
  for (const auto& c : clients) {
    all_intermittent = all_intermittent && c.intermittent;
    needs_cap = needs_cap || c.needs_memory_cap;
  }
  const bool mps_ok = policy.mps && static_cast<int>(clients.size()) <= spec.mps_client_limit &&
                      (!needs_cap || spec.mps_isolates_memory) && consumer_allows(spec.consumer, Sharing::mps) &&
                      fits_consumer(spec, clients);
  double compute = 0;
  for (const auto& c : clients) compute += c.compute;
  // Clients summing past the slice's SMs (profiled ones only, SliceState::check) share them under MPS only:
  // time-slicing would give each a fraction of the time it needs.
  const bool oversubscribed = compute > spec.compute_share + kComputeEpsilon;
  // Steady work time-slices only when a mode is forced: the framework keeps it for intermittent work.
  const bool ts_ok = policy.time_slicing && !needs_cap && consumer_allows(spec.consumer, Sharing::time_slicing) &&
                     (all_intermittent || policy.forced || consumer_fixes_time_slicing(spec.consumer)) &&
                     !oversubscribed;
  // Intermittent work (notebooks, dev) time-slices: idle contexts cost nothing and no daemon is needed.
  const bool time_slicing_first = all_intermittent && !needs_cap;
  const std::array<Sharing, 2> order{time_slicing_first ? Sharing::time_slicing : Sharing::mps,
                                     time_slicing_first ? Sharing::mps : Sharing::time_slicing};
  Fit reason = !mps_ok && !ts_ok ? (needs_cap || !policy.mps ? Fit::isolation : Fit::clients) : Fit::slo;
  // Within the cores even at the clients' rates alone: no prediction can change that verdict.
  const bool cores_alone_fit = fits_host_cores(spec, clients, nullptr);
  for (Sharing s : order) {
    if ((s == Sharing::mps && !mps_ok) || (s == Sharing::time_slicing && !ts_ok)) continue;
    if (!predict && !any_slo && cores_alone_fit) return unpredicted(s);
    SliceEvaluation e = evaluate_sharing(s, spec, clients, parameters, detail);
    if (!fits_host_cores(spec, clients, &e)) {
      reason = Fit::host_cpu;
      continue;
    }
    if (keeps_slos(clients, e)) return e;
  }
  if (why) *why = reason;
  return std::nullopt;
}

}  // namespace

std::optional<SliceEvaluation> choose_slice_sharing(const SliceSpec& spec, const std::vector<ClientLoad>& clients,
                                              const ModePolicy& policy, const ModelParameters& parameters,
                                              PredictionDetail detail, Fit* why) {
  return choose_sharing(spec, clients, policy, parameters, why, true, detail);
}

int SliceState::joinable_client(const WorkloadDemand& d) const {
  if (d.group < 0 || !policy_->streams || needs_own_slice(d.isolation) ||
      !consumer_allows(spec_.consumer, Sharing::streams))
    return -1;
  for (size_t i = 0; i < clients_.size(); ++i) {
    if (clients_[i].group == d.group) return static_cast<int>(i);
  }
  return -1;
}

bool SliceState::closed() const {
  return !clients_.empty() && (clients_.front().own_slice || !policy_->shares_slices());
}

bool SliceState::has_room(std::uint64_t memory, double compute) const {
  return memory_used_ + memory <= spec_.memory_bytes &&
         ((profiled_only_ && policy_->mps) ||
          compute_used_ + compute * spec_.compute_scale <= spec_.compute_share + kComputeEpsilon);
}

Fit SliceState::check(const WorkloadDemand& d) const {
  if (d.not_judged) return Fit::slo;  // whether its SLO holds cannot be told from its profile
  if (needs_own_slice(d.isolation) && consumer_refuses_own_slice(spec_.consumer)) return Fit::isolation;
  if (spec_.consumer.only_tenant >= 0 && d.tenant != spec_.consumer.only_tenant) return Fit::tenant;
  const int join = joinable_client(d);
  const std::uint64_t memory = d.memory_bytes + (join < 0 ? spec_.context_overhead : 0);
  if (memory_used_ + memory > spec_.memory_bytes) return Fit::memory;
  const double compute = d.compute * spec_.compute_scale;
  // Profiled clients may oversubscribe the SMs under MPS where an SLO bounds the contention (choose_sharing
  // below then judges every SLO by the profile model).
  const bool may_oversubscribe = policy_->mps && !clients_.empty() && profiled_only_ && d.profiled &&
                                 (any_slo_ || d.max_p99_inflation.has_value());
  if (compute_used_ + compute > spec_.compute_share + kComputeEpsilon && !may_oversubscribe)
    return Fit::compute;
  if (clients_.empty()) {
    // One replica alone uses its profile's host cores (choose_sharing judges them beside others).
    if (spec_.capacity.host_cores > 0 && d.host_cpu > spec_.capacity.host_cores + kComputeEpsilon)
      return Fit::host_cpu;
    // An NVIDIA plugin MPS replica gets its equal share even alone.
    if (plugin_mps_replicas(spec_.consumer) > 0 && !choose_sharing(spec_, {new_client(d, compute)}, *policy_, *parameters_, nullptr, false, PredictionDetail::inflation))
      return Fit::memory;
    return d.max_p99_inflation && *d.max_p99_inflation < 1.0 ? Fit::slo : Fit::ok;
  }
  if (tenant_ != d.tenant) return Fit::tenant;
  if (needs_own_slice(d.isolation) || clients_.front().own_slice) return Fit::isolation;
  if (join < 0 && !policy_->mps && !policy_->time_slicing) return Fit::isolation;
  // The clients with the replica joined, in a buffer kept between calls: the packers check hundreds of
  // thousands of times per plan, and a fresh vector each time was a large part of planning time.
  thread_local std::vector<ClientLoad> next;
  joined_clients(d, next);
  Fit why = Fit::ok;
  if (!choose_sharing(spec_, next, *policy_, *parameters_, &why, false, PredictionDetail::inflation)) return why;
  return Fit::ok;
}

void SliceState::joined_clients(const WorkloadDemand& d, std::vector<ClientLoad>& next) const {
  const int join = joinable_client(d);
  const double compute = d.compute * spec_.compute_scale;
  next.assign(clients_.begin(), clients_.end());
  if (join >= 0) {
    merge_into(next[static_cast<size_t>(join)], d, compute);
  } else {
    next.push_back(new_client(d, compute));
  }
}

std::vector<int> SliceState::slo_breakers_if_joined(const WorkloadDemand& d) const {
  std::vector<ClientLoad> next;
  joined_clients(d, next);
  // Whom it breaks under each cap setting evaluate_sharing tries (room for bursts, then each client's demand),
  // not only the last: at the demand caps a neighbour can break whose own cap then fell below its need, where
  // with room for bursts the joiner broke its own SLO (run100: the 9th mobilenet-v3-b8 of the saturated
  // scenario, held by its own 32% margin, was said to push dlrm-b4096 past its SLO, which dlrm kept at 100%).
  std::vector<int> out;
  std::vector<int> caps;
  for (const bool tight : {false, true}) {
    const SliceOutcome e = predict_mps(spec_, next, tight, *parameters_, PredictionDetail::inflation, caps);
    for (size_t i = 0; i < next.size(); ++i) {
      // A client beyond the slice's members is the replica joined as a process of its own.
      const int who = i < members_.size() ? members_[i].front().workload : d.workload;
      if (breaks_slo(next[i], e.clients[i]) && std::find(out.begin(), out.end(), who) == out.end()) out.push_back(who);
    }
  }
  return out;
}

void SliceState::add(const WorkloadDemand& d, int replica) {
  const int join = joinable_client(d);
  const double compute = d.compute * spec_.compute_scale;
  tenant_ = d.tenant;
  compute_used_ += compute;
  profiled_only_ = profiled_only_ && d.profiled != nullptr;
  any_slo_ = any_slo_ || d.max_p99_inflation.has_value();
  if (join >= 0) {
    merge_into(clients_[static_cast<size_t>(join)], d, compute);
    members_[static_cast<size_t>(join)].push_back({d.workload, replica});
    memory_used_ += d.memory_bytes;
    return;
  }
  clients_.push_back(new_client(d, compute));
  members_.push_back({{d.workload, replica}});
  memory_used_ += d.memory_bytes + spec_.context_overhead;
}

PlanSlice SliceState::finish(const std::vector<std::string>& tenants) const {
  PlanSlice s;
  s.profile = spec_.profile;
  s.memory_bytes = spec_.memory_bytes;
  s.compute_share = spec_.compute_share;
  if (tenant_ >= 0) s.tenant = tenants[static_cast<size_t>(tenant_)];
  const std::optional<SliceEvaluation> e =
      choose_slice_sharing(spec_, clients_, *policy_, *parameters_, PredictionDetail::figures);
  // Without a sharing that keeps every SLO (the NVIDIA plugin's shares grown to its node's replicas,
  // set_plugin_replicas) the predictions say what the consumer's own sharing does.
  const Sharing fallback = plugin_mps_replicas(spec_.consumer) > 0 ? Sharing::mps : Sharing::exclusive;
  const SliceEvaluation eval =
      e ? *e : evaluate_sharing(fallback, spec_, clients_, *parameters_, PredictionDetail::figures);
  s.sharing = eval.sharing;
  s.predicted_throughput = eval.throughput;
  std::vector<std::uint64_t> limits;
  for (const auto& c : clients_) limits.push_back(c.memory_bytes + spec_.context_overhead);
  if (eval.sharing == Sharing::mps) consumer_memory_limits(spec_.consumer, spec_.memory_bytes, limits);
  for (size_t i = 0; i < clients_.size(); ++i) {
    PlanClient c;
    c.replicas = members_[i];
    c.memory_limit_bytes = limits[i];
    c.compute = clients_[i].compute;
    if (!eval.mps_caps.empty()) c.mps_active_thread_percentage = eval.mps_caps[i];
    c.predicted_p99_inflation = eval.clients[i].inflation;
    // The outcome kept with the slice: the plan's prediction for the client, its notes made from it.
    if (clients_[i].workload) {
      c.prediction = plan_prediction(eval.clients[i], *clients_[i].workload, eval.sharing, *parameters_);
    }
    s.clients.push_back(std::move(c));
  }
  return s;
}

}  // namespace gpupack
