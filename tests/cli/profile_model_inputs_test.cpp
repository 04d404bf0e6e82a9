// A profile turned into the model's inputs (cli/profile_model_inputs.hpp): the facts from the profile
// recorded on an H100 (resnet18-b1: 921698304 bytes with headroom, p99 alone 5.48 ms, 1.0 host cores), and
// every default it brings only where the entry left it out.
#include "cli/profile_model_inputs.hpp"

#include <gtest/gtest.h>

#include "io/input_file.hpp"
#include "model/profile_prediction.hpp"

namespace gpupack {
namespace {

const std::string kResnet = std::string(GPUPACK_PLANNER_TEST_DATA) + "/profiles-h100-2026-11-23/resnet18-b1.json";

measure::WorkloadProfile resnet() { return measure::read_workload_profile(read_input_file(PosixFilesystem{}, kResnet), kResnet); }

TEST(ProfileModelInputs, TheProfileFillsWhatTheEntryLeftOut) {
  Workload w;
  w.name = "resnet18-b1";
  w.latency_slo_ms = 16.4;
  apply_profile(w, resnet(), "resnet.json", builtin_catalog(), ModelParameters{});
  ASSERT_TRUE(w.profile);
  EXPECT_EQ(w.profile->source, "resnet.json");
  EXPECT_EQ(w.profile->gpu_model, "H100-SXM5-80GB");
  EXPECT_EQ(w.profile->gpu_sms, builtin_catalog().get("H100-SXM5-80GB").sm_count);
  EXPECT_EQ(w.memory_bytes, 921698304u);
  EXPECT_DOUBLE_EQ(w.compute, packing_compute(*w.profile, ModelParameters{}));
  EXPECT_NEAR(*w.p99_alone_ms, 5.4794, 1e-4);
  EXPECT_DOUBLE_EQ(*w.slo_margin, ModelParameters{}.profiled_slo_margin);
  EXPECT_NEAR(*pod_cpu_cores(w), 0.9998, 1e-4);
  for (size_t i = 1; i < w.profile->share_curve.size(); ++i) {
    EXPECT_LT(w.profile->share_curve[i - 1].pct, w.profile->share_curve[i].pct);
  }
}

TEST(ProfileModelInputs, TheModelsParametersGiveTheDefaults) {
  ModelParameters m;
  m.profiled_slo_margin = 0.3;
  Workload w;
  w.latency_slo_ms = 16.4;
  apply_profile(w, resnet(), kResnet, builtin_catalog(), m);
  EXPECT_DOUBLE_EQ(*w.slo_margin, 0.3);
  EXPECT_DOUBLE_EQ(w.compute, packing_compute(*w.profile, m));
}

TEST(ProfileModelInputs, WhatTheEntryStatesWins) {
  Workload w;
  w.memory_bytes = 3u << 30;
  w.compute = 0.25;
  w.latency_slo_ms = 20;
  w.p99_alone_ms = 7;
  w.slo_margin = 0;
  w.deploy.cpu = 2;
  apply_profile(w, resnet(), kResnet, builtin_catalog(), ModelParameters{});
  EXPECT_EQ(w.memory_bytes, 3u << 30);
  EXPECT_DOUBLE_EQ(w.compute, 0.25);
  EXPECT_DOUBLE_EQ(*w.p99_alone_ms, 7);
  EXPECT_DOUBLE_EQ(*w.slo_margin, 0);
  EXPECT_DOUBLE_EQ(*pod_cpu_cores(w), 2);
}

TEST(ProfileModelInputs, WithoutAnSloNoP99AloneOrMargin) {
  Workload w;
  apply_profile(w, resnet(), kResnet, builtin_catalog(), ModelParameters{});
  EXPECT_FALSE(w.p99_alone_ms.has_value());
  EXPECT_FALSE(w.slo_margin.has_value());
  Workload plain;
  EXPECT_FALSE(pod_cpu_cores(plain).has_value());  // neither the scenario nor a profile says
}

}  // namespace
}  // namespace gpupack
