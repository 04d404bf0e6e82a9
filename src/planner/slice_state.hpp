#pragma once
// One slice (a whole GPU or a MIG instance) while the packer fills it: what it holds and whether one more
// replica may join without breaking a rule (memory, compute, client limit, trust, isolation, SLO).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/gpu_model.hpp"
#include "core/plan.hpp"
#include "model/model_parameters.hpp"
#include "model/prediction.hpp"
#include "planner/consumer_rules.hpp"
#include "planner/demand.hpp"
#include "planner/policy.hpp"

namespace gpupack {

struct SliceSpec {
  int profile = -1;                // MIG profile index, -1 for the whole GPU
  std::uint64_t memory_bytes = 0;  // what the slice offers
  double compute_share = 1.0;      // its share of the GPU's SMs
  int mps_client_limit = 48;
  bool mps_isolates_memory = true;  // Volta+
  double compute_scale = 1.0;       // reference-GPU fraction -> this GPU's fraction
  std::uint64_t context_overhead = 0;
  SliceCapacity capacity;  // its SMs, DRAM bandwidth and host cores (the profile model reads them)
  ConsumerRules consumer;  // what the consumer serving its GPU can express (planner/consumer_rules.hpp)
};

// Usable memory of a whole GPU: the full-size MIG profile's memory where the catalog has one (what the
// driver reports), otherwise the model's usable_memory_share (94%) of nominal, in steps of 1/4 GiB.
std::uint64_t whole_gpu_memory_bytes(const GpuModel& model, const ModelParameters& m);
SliceSpec whole_gpu_spec(const GpuModel& model, CudaVersion cuda, int reference_sms, std::uint64_t overhead,
                         const ModelParameters& m);
SliceSpec mig_instance_spec(const GpuModel& model, int profile, CudaVersion cuda, int reference_sms,
                            std::uint64_t overhead, const ModelParameters& m);

// Why a replica may not join a slice.
enum class Fit { ok, memory, compute, host_cpu, clients, tenant, isolation, slo };

// The numbers of one client that the rules look at.
struct ClientLoad {
  int group = -1;
  std::uint64_t memory_bytes = 0;  // its replicas, without the context
  double compute = 0;              // fraction of this GPU's SMs
  std::optional<double> max_p99_inflation;
  bool intermittent = true;
  bool needs_memory_cap = false;
  bool own_slice = false;
  int replicas = 0;
  const Workload* profiled = nullptr;  // set when its profile judges it (model/profiled_slice.hpp)
  double host_cpu =
      0;  // its replicas' host CPU cores alone (their profiles'): the bound where no rate scales it
  const Workload* workload = nullptr;  // its (first replica's) workload: the model predicts it from this
};

// The sharing chosen for the clients of one slice, its MPS caps, and the model's outcome for them
// (model/prediction.hpp): per client its inflation and figures, the slice's throughput, and the host cores
// its clients use at their predicted req/s where the profile model judged the slice (else their cores
// alone count). Empty outcomes where the verdict needed no prediction.
struct SliceEvaluation : SliceOutcome {
  Sharing sharing = Sharing::exclusive;
  std::vector<int> mps_caps;  // per client, empty unless MPS
};

// Chooses the sharing for `clients` (the first the policy allows whose predictions keep every SLO) and
// predicts p99 and throughput. None when no sharing works; `why` then says which rule failed.
std::optional<SliceEvaluation> choose_slice_sharing(const SliceSpec& spec, const std::vector<ClientLoad>& clients,
                                              const ModePolicy& policy, const ModelParameters& parameters,
                                              PredictionDetail detail, Fit* why = nullptr);

// The same model with one sharing imposed (used by explanations to show what an alternative would do).
SliceEvaluation evaluate_sharing(Sharing sharing, const SliceSpec& spec, const std::vector<ClientLoad>& clients,
                             const ModelParameters& parameters,
                             PredictionDetail detail = PredictionDetail::inflation);

class SliceState {
 public:
  SliceState(SliceSpec spec, const ModePolicy* policy, const ModelParameters* parameters)
      : spec_(spec), policy_(policy), parameters_(parameters) {}

  Fit check(const WorkloadDemand& d) const;
  // Where check said slo: the workloads (indexes) whose SLO the slice's MPS predictions break with the replica
  // joined, so that the unplaced reason names them (the replica's own, or a neighbour's it would push past).
  std::vector<int> slo_breakers_if_joined(const WorkloadDemand& d) const;
  // Adds one replica (check must have said ok).
  void add(const WorkloadDemand& d, int replica);

  bool empty() const { return clients_.empty(); }
  // No replica of any workload can join any more (check would refuse them all): the slice holds a
  // replica that needs a slice of its own, or the policy lets no second client in.
  bool closed() const;
  // The first tests of check, cheap: room for `memory` bytes (without a context, which a group member may
  // share) and `compute` (fraction of the reference GPU). False means check refuses any such replica.
  // Compute is not a bound on a slice whose clients are all judged by their profiles under MPS (check
  // decides there: model/profiled_slice.hpp).
  bool has_room(std::uint64_t memory, double compute) const;
  const SliceSpec& spec() const { return spec_; }
  int tenant() const { return tenant_; }
  std::uint64_t memory_used() const { return memory_used_; }
  double compute_used() const { return compute_used_; }
  const std::vector<ClientLoad>& loads() const { return clients_; }
  const std::vector<std::vector<ReplicaRef>>& members() const { return members_; }
  // The finished slice for the plan (sharing, limits, caps, predictions).
  PlanSlice finish(const std::vector<std::string>& tenants) const;
  // The NVIDIA plugin's MPS replicas of its node (planner/consumer_search.hpp): fewer than the pool's when
  // no GPU of the node has as many clients; the shares grow to match.
  void set_plugin_replicas(int replicas) {
    if (spec_.consumer.plugin) spec_.consumer.plugin->replicas = replicas;
  }
  // The node's cores and the client processes on all of its GPUs and MIG instances (planner/node_cores.hpp):
  // the slice is then judged with the wait for a core they add, not only its own processes.
  void set_node(double cores, int processes) {
    spec_.capacity.node_cores = cores;
    spec_.capacity.node_processes = processes;
  }
  // Its client processes: one a replica, as the plan's predictions count them.
  int processes() const {
    int n = 0;
    for (const auto& m : members_) n += static_cast<int>(m.size());
    return n;
  }

 private:
  int joinable_client(const WorkloadDemand& d) const;
  // The slice's clients with the replica joined (into its group's process, or as one of its own), into `next`.
  void joined_clients(const WorkloadDemand& d, std::vector<ClientLoad>& next) const;

  SliceSpec spec_;
  const ModePolicy* policy_;
  const ModelParameters* parameters_;
  int tenant_ = -1;
  std::uint64_t memory_used_ = 0;  // client limits, contexts included
  double compute_used_ = 0;
  bool profiled_only_ = true;  // every client is judged by its profile
  bool any_slo_ = false;
  std::vector<ClientLoad> clients_;
  std::vector<std::vector<ReplicaRef>> members_;
};

}  // namespace gpupack
