#include <gtest/gtest.h>

#include "bench/child_group.hpp"
#include "bench/device_query.hpp"
#include "bench/options.hpp"
#include "bench/worker_protocol.hpp"
#include "bench/workers.hpp"
#include "core/errors.hpp"

namespace gpupack::bench {
namespace {

TEST(WorkerProtocol, ArgsNameModeAndEveryField) {
  WorkerRequest r;
  r.mode = WorkerMode::latency;
  r.blocks = 4;
  r.iters = 12345;
  r.sync = true;
  const auto args = to_args(r);
  EXPECT_EQ(args.front(), "latency");
  EXPECT_NE(std::find(args.begin(), args.end(), "12345"), args.end());
  EXPECT_EQ(args.back(), "--sync");
  EXPECT_EQ(worker_mode_from_string("neighbour"), WorkerMode::neighbour);
  EXPECT_THROW(worker_mode_from_string("spin"), InputError);
}

TEST(WorkerProtocol, ResultIsTheLastJsonLine) {
  const auto j = parse_worker_output("ready\n{\"a\": 1}\nnoise\n{\"seconds\": 0.5}\n", "w");
  EXPECT_EQ(j.at("seconds").get<double>(), 0.5);
  EXPECT_THROW(parse_worker_output("ready\n", "w"), std::runtime_error);
  try {
    parse_worker_output("{\"error\": \"no usable CUDA driver\", \"unavailable\": true}\n", "bench-worker info");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "bench-worker info: no usable CUDA driver");
  }
  // An error that is not a string (found by fuzz_worker_output) is still the worker's error, not a crash.
  try {
    parse_worker_output("{\"error\": 8888888888888888888}\n", "w");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "w: 8888888888888888888");
  }
}

TEST(Options, PartsParseAndRejectUnknownWords) {
  EXPECT_EQ(parse_parts("streams, mps"), (std::set<Part>{Part::streams, Part::mps}));
  EXPECT_THROW(parse_parts("streams,mpss"), InputError);
  EXPECT_THROW(parse_parts(","), InputError);
}

TEST(Options, SharingPartsReadEitherSpellingAndPrintTheMeasurementKey) {
  EXPECT_EQ(parse_parts("timeslicing"), (std::set<Part>{Part::time_slicing}));
  EXPECT_EQ(parse_parts("time-slicing,mig"), (std::set<Part>{Part::time_slicing, Part::mig}));
  EXPECT_EQ(to_string(Part::time_slicing), "timeslicing");
  try {
    parse_parts("nonsense");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("accepted: streams, timeslicing, mps, isolation, limits, mig, client"),
              std::string::npos)
        << e.what();
  }
}

TEST(Options, QuickPlanDoesLessOfTheSameExperiments) {
  BenchOptions quick;
  quick.quick = true;
  const BenchPlan q = make_plan(quick), full = make_plan({});
  EXPECT_EQ(q.ks, full.ks);
  EXPECT_EQ(q.caps, full.caps);
  EXPECT_LT(q.client_work_ms, full.client_work_ms);
  EXPECT_LT(q.latency_samples, full.latency_samples);
}

TEST(DeviceQuery, SmiQueryAndMigListing) {
  DeviceInfo d;
  d.uuid = d.gpu_uuid = "GPU-b";
  apply_smi_query(d, "GPU-a, 580.1, Disabled, Default\nGPU-b, 580.159.04, Enabled, Default\n");
  EXPECT_EQ(d.driver_version, "580.159.04");
  EXPECT_EQ(d.mig_mode, "Enabled");
  const std::string listing =
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-a)\n"
      "  MIG 3g.40gb     Device  0: (UUID: MIG-a1)\n"
      "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-b)\n"
      "  MIG 3g.40gb     Device  0: (UUID: MIG-b1)\n"
      "  MIG 1g.10gb     Device  1: (UUID: MIG-b2)\n";
  EXPECT_EQ(parse_mig_uuids(listing, "GPU-b"), (std::vector<std::string>{"MIG-b1", "MIG-b2"}));
  DeviceInfo na;
  na.uuid = na.gpu_uuid = "GPU-x";
  apply_smi_query(na, "GPU-x, 535.1, [N/A], Default\n");
  EXPECT_EQ(na.mig_mode, "");
}

TEST(DeviceQuery, MigInstanceSeenByCudaResolvesToItsParentGpu) {
  const std::string listing =
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-aaaa)\n"
      "  MIG 3g.40gb     Device  0: (UUID: MIG-1234)\n"
      "  MIG 3g.40gb     Device  1: (UUID: MIG-5678)\n";
  DeviceInfo mig;
  mig.uuid = "GPU-5678";  // how the CUDA runtime formats the instance's UUID
  resolve_gpu(mig, listing);
  EXPECT_EQ(mig.uuid, "MIG-5678");
  EXPECT_EQ(mig.gpu_uuid, "GPU-aaaa");
  apply_smi_query(mig, "GPU-aaaa, 580.159.04, Enabled, Default\n");
  EXPECT_EQ(mig.mig_mode, "Enabled");
  EXPECT_EQ(parse_mig_uuids(listing, mig.gpu_uuid), (std::vector<std::string>{"MIG-1234", "MIG-5678"}));
  DeviceInfo whole;
  whole.uuid = "GPU-aaaa";
  resolve_gpu(whole, listing);
  EXPECT_EQ(whole.uuid, "GPU-aaaa");
  EXPECT_EQ(whole.gpu_uuid, "GPU-aaaa");
}

TEST(Workers, ModeEnvironmentsKeepModesApart) {
  const auto plain = plain_environment();
  EXPECT_NE(std::find(plain.unset.begin(), plain.unset.end(), "CUDA_MPS_PIPE_DIRECTORY"), plain.unset.end());
  const auto mps = mps_environment({{"CUDA_MPS_PIPE_DIRECTORY", "/tmp/x/pipe"}}, {{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "50"}});
  EXPECT_EQ(mps.set.at("CUDA_MPS_PIPE_DIRECTORY"), "/tmp/x/pipe");
  EXPECT_EQ(mps.set.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
  EXPECT_NE(std::find(mps.unset.begin(), mps.unset.end(), "CUDA_VISIBLE_DEVICES"), mps.unset.end());
  EXPECT_EQ(mig_environment("MIG-1").set.at("CUDA_VISIBLE_DEVICES"), "MIG-1");
}

// The ready/go handshake with a shell standing in for a worker.
TEST(ChildGroup, ReadyGoAndResults) {
  const std::string script = "echo ready; read line; [ \"$line\" = go ] && echo \"{\\\"v\\\": $X}\"";
  ChildGroup g({ChildSpec{{"/bin/sh", "-c", script}, {{"X", "1"}}, {}}, ChildSpec{{"/bin/sh", "-c", script}, {{"X", "2"}}, {}}});
  g.wait_ready(std::chrono::seconds(10));
  g.send_all("go");
  g.wait_exit(std::chrono::seconds(10));
  EXPECT_EQ(parse_worker_output(g.outcome(0).out, "w").at("v"), 1);
  EXPECT_EQ(parse_worker_output(g.outcome(1).out, "w").at("v"), 2);
  EXPECT_EQ(g.outcome(1).exit_code, 0);
}

TEST(ChildGroup, ExitBeforeReadyNamesTheCause) {
  ChildGroup g({ChildSpec{{"/bin/sh", "-c", "echo 'no GPU here' >&2; exit 3"}, {}, {}}});
  try {
    g.wait_ready(std::chrono::seconds(10));
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no GPU here"), std::string::npos) << e.what();
  }
}

TEST(ChildGroup, UnsetEnvironmentIsRemoved) {
  ::setenv("GPUPACK_TEST_VAR", "leak", 1);
  ChildGroup g({ChildSpec{{"/bin/sh", "-c", "echo \"[$GPUPACK_TEST_VAR]\""}, {}, {"GPUPACK_TEST_VAR"}}});
  g.wait_exit(std::chrono::seconds(10));
  ::unsetenv("GPUPACK_TEST_VAR");
  EXPECT_EQ(g.outcome(0).out, "[]\n");
}

TEST(ChildGroup, TimeoutKillsAndThrows) {
  ChildGroup g({ChildSpec{{"/bin/sleep", "30"}, {}, {}}});
  EXPECT_THROW(g.wait_exit(std::chrono::milliseconds(100)), std::runtime_error);
  EXPECT_EQ(g.outcome(0).exit_code, 128 + 9);
}

}  // namespace
}  // namespace gpupack::bench
