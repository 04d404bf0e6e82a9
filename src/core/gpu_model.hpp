#pragma once
// One GPU model of the catalog and the sharing facts that follow from it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/architecture.hpp"
#include "core/cuda_version.hpp"
#include "core/mig_profile.hpp"

namespace gpupack {

// An AWS fractional GPU (EC2 G6f/Gr6f): a fixed share of one physical GPU that the hypervisor hands to the
// instance as an NVIDIA vGPU. Kubernetes sees it as one whole `nvidia.com/gpu` whatever its size; its compute
// is the physical GPU's SMs, time-shared by the hypervisor, so its share is 1/denominator of them.
// Facts and sources: docs/fractional-gpus.md.
struct GpuFraction {
  int denominator = 1;                      // 8 for 1/8 of the physical GPU
  std::string of_model;                     // the physical GPU's catalog name, e.g. "L4-24GB"
  std::vector<std::string> instance_types;  // EC2 instance types that carry this fraction, e.g. "g6f.large"
  bool mps_inside = false;                  // AWS does not document MPS inside the vGPU guest: not allowed
};

struct GpuModel {
  std::string name;                     // canonical, e.g. "H100-SXM5-80GB"
  std::vector<std::string> aliases;     // short names users type, e.g. "H100-80GB"
  std::vector<std::string> nvml_names;  // exact product names NVML reports, e.g. "NVIDIA H100 80GB HBM3"
  Architecture arch = Architecture::ampere;
  ComputeCapability compute_capability;
  int sm_count = 0;
  double memory_gib = 0;           // nominal capacity (the vendor's "GB"); usable memory is a little less
  std::optional<MigGeometry> mig;  // absent when the model has no MIG
  // Fields whose values were not seen in real output ("sm_count", "nvml_names", ...).
  std::vector<std::string> unconfirmed;
  std::optional<GpuFraction> fraction = std::nullopt;  // present only for fractional GPUs
  // Peak DRAM bandwidth in GB/s from NVIDIA's datasheets (0: not known); profiles measured on another GPU
  // model scale their memory-bound time by it.
  double memory_bandwidth_gbs = 0;

  bool supports_mig() const { return mig.has_value(); }
  bool is_fractional() const { return fraction.has_value(); }
  // The share of the physical GPU's compute this model gets: 1 for a whole GPU, 1/8 for a 1/8 fraction.
  double compute_fraction() const { return fraction ? 1.0 / fraction->denominator : 1.0; }
  bool is_unconfirmed(std::string_view field) const;
};

// What the profile model scales by: a slice's SMs and its DRAM bandwidth (0: not known). A MIG instance gets
// the share of the bandwidth its memory slices carry (each memory slice has its share of the memory
// controllers).
struct SliceCapacity {
  int sms = 0;
  double bandwidth_gbs = 0;
  // Host CPU cores that may drive its clients: the fleet's cpu_cores per GPU of a node, for a whole GPU and
  // for each of its MIG instances alike (the instances of a GPU share its cores: the planner bounds their
  // sum per node, planner/node_cores.hpp); 0 when the fleet does not state them.
  double host_cores = 0;
  // The whole node's cores and the client processes on all of its GPUs and MIG instances, this slice's
  // included: every process on a node competes for the same cores, whatever the partitioning (issue 37).
  // 0 while a slice is judged alone (packing): then its own share and its own processes.
  double node_cores = 0;
  int node_processes = 0;
  // The GPU model's catalog name: what observed corrections (core/observed_correction.hpp) are keyed by.
  std::string gpu_model = std::string();  // (initialised: capacities written as {sms, bandwidth} stay warning-free)
};
SliceCapacity slice_capacity(const GpuModel& model, int mig_profile = -1);

// Whether an MPS server may run on this model: not inside a fractional GPU whose provider does not document
// it.
bool mps_supported(const GpuModel& model);
// MPS clients per device (0 where MPS is not supported): 16 before Volta; 48 from Volta up to CUDA 13.0; 60
// from CUDA 13.1.
int mps_client_limit(const GpuModel& model, CudaVersion cuda);
// Under MIG, MPS runs inside each instance and its client limit shrinks in proportion to the instance's
// share of the compute slices (rounded down, at least 1).
int mps_client_limit_in_instance(const GpuModel& model, const MigProfile& profile, CudaVersion cuda);
// Volta+ MPS clients have isolated address spaces; before Volta one fault or stray write hits all clients.
bool mps_isolates_memory(const GpuModel& model);
// Static SM partitions (`nvidia-cuda-mps-control -S`, sm_partition) need CUDA 13.1 and Volta+.
bool mps_static_sm_partitions(const GpuModel& model, CudaVersion cuda);

}  // namespace gpupack
