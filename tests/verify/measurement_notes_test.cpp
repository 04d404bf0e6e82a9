#include "verify/measurement_notes.hpp"

#include <gtest/gtest.h>

namespace gpupack::verify {
namespace {

ReplicaVerdict replica(const std::string& workload, int index, std::vector<double> p99, std::vector<double> rps) {
  ReplicaVerdict v;
  v.workload = workload;
  v.replica = index;
  v.p99_ms.runs = std::move(p99);
  v.req_per_s.runs = std::move(rps);
  return v;
}

// Run 12 (machine h, "mixed"): resnet18-b1-1's p99 was 4.19 and 6.14 ms in its two repeats (38% of their
// mean), its req/s 265 and 273; mlp-b8-0's repeats were within 8% of each other.
TEST(MeasurementNotes, RepeatsThatDifferByMoreThanTheToleranceAreNamed) {
  VerifyReport r;
  r.tolerance = 0.25;
  r.replicas = {replica("resnet18-b1", 1, {4.19, 6.14}, {265.4, 273.4}),
               replica("mlp-b8", 0, {0.311, 0.288}, {4108.8, 4246.5})};
  add_measurement_notes(r, {});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0],
            "repeats that differ by more than the tolerance (25%; the spread in brackets), so an error within it may be chance: "
            "resnet18-b1-1 (p99 38%); more --repeat or a longer --duration");
}

TEST(MeasurementNotes, BothFiguresAndLongListsAreShortened) {
  VerifyReport r;
  r.tolerance = 0.1;
  for (int i = 0; i < 8; ++i) r.replicas.push_back(replica("fast", i, {10, 12}, {100, 80}));
  add_measurement_notes(r, {});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find(": fast-0 (p99 18%, req/s 22%), fast-1 (p99 18%, req/s 22%), "), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[0].find("fast-5 (p99 18%, req/s 22%) and 2 more;"), std::string::npos) << r.notes[0];
}

TEST(MeasurementNotes, OneRepeatOrSteadyRepeatsAndManyRequestsAddNothing) {
  VerifyReport r;
  r.tolerance = 0.25;
  r.replicas = {replica("fast", 0, {10}, {100}), replica("fast", 1, {10, 11}, {100, 110})};
  add_measurement_notes(r, {});
  EXPECT_TRUE(r.notes.empty());
  add_measurement_notes(r, {{"fast-0", "30"}});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0],
            "fewer than 1000 requests in a window (the fewest in brackets), so a p99 rests on the slowest 1% of them: fast-0 (30); "
            "a longer --duration steadies it");
}

// Run42 (results/run42-density): 22 mobilenet-v3-b8 and a training job kept 0.47 of the SMs busy where their
// profiles predict 0.72. A slice within 0.10 of its prediction, or over it, or without one, is not named.
TEST(MeasurementNotes, ASliceWellUnderItsPredictedSmActivityIsNamed) {
  auto slice = [](const std::string& name, std::optional<double> predicted, std::vector<double> measured) {
    SliceVerdict v;
    v.slice = name;
    v.sm_active.runs = std::move(measured);
    v.predicted_sm_active = predicted;
    if (predicted && v.sm_active.mean()) v.sm_active_error = *v.sm_active.mean() - *predicted;
    return v;
  };
  VerifyReport r;
  r.tolerance = 0.25;
  r.slices = {slice("gpu0/s0", 0.72, {0.47}), slice("gpu1/s0", 0.79, {0.70}), slice("gpu2/s0", 0.5, {0.9}),
              slice("gpu3/s0", std::nullopt, {0.2}), slice("gpu4/s0", 0.8, {})};
  add_measurement_notes(r, {});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0].rfind("gpu0/s0 kept 0.47 of its SMs busy where the plan predicted 0.72 from its clients' profiles: "
                             "they did not drive the GPU as they did alone",
                             0),
            0u)
      << r.notes[0];
}

// Of the replicas off their profile's prediction, those that missed by no more than the profile's baseline
// runs alone were apart are named; replicas not judged (within the tolerance, or no range) are not counted.
TEST(MeasurementNotes, MissesWithinTheProfilesBaselineRunsAreCountedAndNamed) {
  VerifyReport r;
  r.tolerance = 0.25;
  r.replicas = {replica("bert", 0, {10}, {100}), replica("bert", 1, {10}, {100}), replica("dlrm", 0, {10}, {100}),
                replica("mlp", 0, {10}, {100})};
  r.replicas[0].miss_within_profile_runs = false;
  r.replicas[1].miss_within_profile_runs = true;
  r.replicas[2].miss_within_profile_runs = true;
  add_measurement_notes(r, {});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0].rfind("2 of the 3 replicas off their profile's prediction beyond the tolerance missed by no more "
                             "than the profile's baseline runs alone were apart", 0), 0u) << r.notes[0];
  EXPECT_NE(r.notes[0].find("noise: bert-1, dlrm-0; the others missed by more: the model's"), std::string::npos) << r.notes[0];
}

}  // namespace
}  // namespace gpupack::verify
