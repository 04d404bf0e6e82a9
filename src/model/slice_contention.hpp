#pragma once
// What each client of an MPS slice brings to it and what it suffers from its neighbours, from the
// clients' profiles (docs/decisions.md, "The model, per slice"): the pieces profile_prediction.cpp
// combines into a client's slowdown.
#include <vector>

#include "model/model_parameters.hpp"
#include "model/profile_prediction.hpp"

namespace gpupack::contention {

// What a client does to the slice and how much of its request the slice's contention reaches:
// - `sm`: the share of the slice's SMs it keeps busy (GPM SM activity, at most its cap), its footprint;
// - `dram`: its share of the DRAM bandwidth (GPM), cut in proportion where its cap cuts its SM activity;
// - `exposed`: the share of its request time a kernel of it runs (NVML utilisation, at least its SM
//   activity): the part that waits when the SMs are oversubscribed; the rest is launch and host time;
// - `width`: the share of the SMs its kernels fill while they run (SM activity / kernel time).
// Without a profile: the planned compute, fully exposed, full width.
struct Activity {
  double sm = 0;
  double dram = 0;
  double exposed = 1;
  double width = 1;
  double cap = 1;     // its MPS cap, a share of the SMs
  int processes = 1;  // replicas: sm and dram are their sum
};

// Its activity on `slice` under its cap.
Activity activity(const PredictionInput& c, SliceCapacity slice);

// The pressure on client `i`'s SMs: its own footprint, plus each neighbour's in proportion to how wide its
// kernels are next to client i's (at most in full). Narrow kernels (a launch-bound CNN's fill 19% of the
// SMs while they run) take SMs the wide ones free between blocks, but hardly keep a wide kernel waiting:
// measured on H100s, 15 resnet18-b1 clients (summed SM activity 1.08) took nothing from a GEMM capped at
// 55% of the SMs (it kept 100% of its capped req/s), while 2 MLP clients (0.77) cost a GEMM at 40% a fifth.
double pressure(const std::vector<Activity>& acts, size_t i);

// The other processes on client `i`'s slice as copies of it: each counts its SM activity over the client's
// own a process, at most one copy. A launch-path cost read from the client's own MPS grid is what K - 1
// copies as busy as itself cost it; a neighbour that keeps the SMs less busy interleaves fewer kernels and
// launches with it (runs 51-53: train-resnet18's grid read 0.14 a copy, and beside 10 mobilenets at a fifth
// of its activity it ran 20-25% faster than 0.14 a process predicted; results/README.md).
double copy_equivalents(const std::vector<Activity>& acts, size_t i);

// The SM activity of the other processes on client `i`'s slice (each at most its cap) where their caps
// together can hold every SM of the slice, else 0: the neighbours whose kernels can leave client i's waiting
// for SMs (model/saturation_wait.hpp). The triad at 50% of the threads leaves half the SMs free, and
// bert-base-b4 lost nothing beside it (run57).
double others_filling_sm(const std::vector<Activity>& acts, size_t i);

// How far the SM activity of those neighbours (others_filling_sm) and client `i`'s own a process go past every
// SM of the slice (at least 0): what its kernels queue behind. Below it they find free SMs most of the time.
// Beside the inference scenario's nine neighbours (SM activity 1.14 together, their caps 280% of the threads)
// bert-base-b4 grew 1.8 ms a request, and beside three dlrm-b4096 (2.2) 7.0 ms; beside two resnet50-b32
// (0.79) 0.25 ms (runs 76-77). Carried in proportion to the others' SM activity, the wait calibrated beside the
// triad predicted it 3.1 ms there (run64, run81: bert ran twice the req/s predicted).
double sm_overload(const std::vector<Activity>& acts, size_t i);

// The other processes on client `i`'s slice under time-slicing as copies of it: each counts its busy time (the
// share of its time its kernels run alone, `exposed`) over the client's, more than one copy where it is
// busier. Time-slicing gives every context with work its turn: a training job that always has work takes
// every turn it is given, a client idle between requests yields it. A neighbour without a profile counts as
// busy all the time. Counted as plain copies, a transformer's own K-curve would have predicted its p99 beside
// a training job far under the x8 issue 36 measured.
double busy_copies(const std::vector<Activity>& acts, size_t i);

// Bursts of wider neighbours (measured on an H100, results/verify-profiled-h100/run13, the DRAM
// sweep): 4 resnet18-b1 lost 10%, 20% and 23% of their predicted req/s beside 2, 3 and 4 mlp-b8 at 80%,
// and 10% beside the same 4 MLPs capped at 20%, which kept their req/s and drew the same DRAM bandwidth
// (GPM 0.77 against 0.74; never above 0.79 in the sweep), while a GEMM job capped at 30-55%, whose kernels
// run all the time on its share, hardly slowed them. A narrow client whose kernels come and go waits when
// the wide kernels of neighbours that also come and go fill the SMs at once. Its load: over the
// neighbours whose kernels run less than 95% of the time (steady_kernel_share) and are wider than its own, their
// footprint x their width x the share of it the client's own kernels do not fill. Past 0.4 (burst_free) it
// stretches the client's kernel time by 2 (burst_wait) per unit, beyond the pressure above. Fitted on runs
// 1-13 (resnet18-b1's mean absolute req/s error 8.9% -> 6.3%, mixed3's +24..+37% in run 8 -> +6..+18%;
// docs/decisions.md). mlp-b8 and the GEMM have no wider neighbour that comes and goes, so no such load.
// burst_load: that load; burst_wait: what it adds to the client's contention.
double burst_load(const std::vector<Activity>& acts, size_t i, const ModelParameters& m);
double burst_wait(const std::vector<Activity>& acts, size_t i, const ModelParameters& m);

}  // namespace gpupack::contention
