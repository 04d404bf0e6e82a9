#pragma once
// The share of a slice's SMs its clients keep busy together (GPM SM activity: what DCGM's SM-active and
// `gpupack verify`'s gpu_activity show), predicted from each client's SM activity alone as if their kernels
// came and went independently of each other's: 1 - (1 - a_1)(1 - a_2)...(1 - a_n), one factor per process.
// An SM with kernels of two clients on it counts once, so the activities do not add: on H200s, an inference
// mix whose clients' activities alone summed to 1.34 kept 0.75-0.82 of the SMs busy, and this predicts 0.79
// (results/run64-default-profiles-h200, run81, run82). Each process counts at most its MPS cap of the SMs.
// Against the 149 recorded verify runs of `gpupack model replay` (none fitted on: nothing in it is fitted): the
// 87 corpus runs (runs 33-90) within 0.05 in 69 and within 0.10 in 78; the older H100 runs of resnet18-b1, mlp-b8
// and a GEMM within 0.05 in 26 of 62 and 0.10 in 42, too high by up to 0.22 beside 10-20 resnet18-b1. It is
// also too high where the host's cores kept the clients from driving the GPU as they did alone (16 decode
// loops on 16 cores: 0.32 predicted, 0.11 measured; 22 mobilenets beside a training job: 0.72 and 0.47).
// Pure.
#include <optional>
#include <vector>

#include "model/prediction.hpp"

namespace gpupack {

// None unless every client has a profile that measured its SM activity, or where the clients take turns
// (time-slicing with more than one process: their activities do not overlap as under MPS). A profile
// measured on a GPU with other SMs is scaled to the slice's SMs (at most 1 a process).
std::optional<double> predicted_sm_active(Sharing sharing, SliceCapacity slice, const std::vector<ModelClient>& clients);

}  // namespace gpupack
