#include "measure/workload_profile.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "os/proc_reader.hpp"

namespace gpupack::measure {
namespace {

WorkloadProfile sample() {
  WorkloadProfile p;
  p.name = "resnet18-b1";
  p.command = {"python3", "resnet18_b1.py", "--duration", "600"};
  p.device = {"H100-SXM5-80GB", "NVIDIA H100 80GB HBM3", "GPU-1"};
  p.window = {"ready-line", 3, 10, true, 8.5};
  p.memory = {801112064, 922746880, "processes"};
  p.activity = {0.061, 0.0234, 0.002, std::nullopt, 0.41, "gpm", 20};
  p.requests = ProfileRequests{431.4, 2.27, 2.5, 4314};
  p.report = {true, 2, "not a JSON object: x"};
  p.host_cpu_cores = 1.0;
  p.sm_share_curve = {{100, 351.2, 2.75, 3.62}, {50, 427.6, 1.96, 3.6}, {12, 445.5, std::nullopt, std::nullopt}};
  p.sm_share_curve[0].runs = {{351.2, 2.75, 3.62}, {351.2, 2.75, 3.62}};
  p.sm_share_curve[1].runs = {{427.6, 1.96, 3.6}};
  p.sm_share_curve[1].verdict = ShareVerdict{true, true, "req/s +21.8% (limit -10.0%)"};
  p.compute_demand = {0.12, "sweep", 0.1, 0.25, 0.3};
  p.colocation = nlohmann::json{{"modes", nlohmann::json::array({"mps"})}};
  return p;
}

TEST(WorkloadProfile, JsonRoundTripKeepsEveryField) {
  const auto p = sample();
  const auto j = profile_to_json(p);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_TRUE(j["activity"]["dram_bw"].is_null());
  const auto back = profile_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(profile_to_json(back).dump(), j.dump());
  EXPECT_EQ(back.sm_share_curve.size(), 3u);
  EXPECT_FALSE(back.sm_share_curve[2].p99_ms);
  EXPECT_EQ(back.sm_share_curve[0].runs.size(), 2u);
  EXPECT_EQ(back.sm_share_curve[1].verdict->why, "req/s +21.8% (limit -10.0%)");
  EXPECT_DOUBLE_EQ(*back.compute_demand.p99_limit, 0.3);
  EXPECT_DOUBLE_EQ(j["sm_share_curve"][0]["spread"]["p99_ms"].get<double>(), 0);  // derived from the runs
  EXPECT_TRUE(j["sm_share_curve"][1]["spread"]["p99_ms"].is_null());               // one run: no spread
  EXPECT_TRUE(j["sm_share_curve"][2]["verdict"].is_null());
  EXPECT_EQ(back.colocation->at("modes")[0], "mps");
}

TEST(WorkloadProfile, NullRequestsAndNoCurveRoundTrip) {
  auto p = sample();
  p.requests.reset();
  p.sm_share_curve.clear();
  p.colocation.reset();
  p.device.model.reset();
  p.compute_demand = {0.41, "utilization", std::nullopt, std::nullopt, std::nullopt};
  const auto back = profile_from_json(nlohmann::json::parse(profile_to_json(p).dump()));
  EXPECT_FALSE(back.requests);
  EXPECT_FALSE(back.colocation);
  EXPECT_FALSE(back.device.model);
  EXPECT_EQ(profile_to_json(back).dump(), profile_to_json(p).dump());
}

TEST(WorkloadProfile, ReaderNamesWhatIsWrong) {
  auto j = nlohmann::json::parse(profile_to_json(sample()).dump());
  auto expect_error = [](const nlohmann::json& doc, const std::string& part) {
    try {
      profile_from_json(doc);
      ADD_FAILURE() << "accepted " << doc.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  auto v2 = j;
  v2["schema_version"] = 2;
  expect_error(v2, "schema_version 2");
  auto no_memory = j;
  no_memory.erase("memory");
  expect_error(no_memory, "has no 'memory'");
  auto bad_peak = j;
  bad_peak["memory"]["peak_bytes"] = "lots";
  expect_error(bad_peak, "memory.peak_bytes");
  auto zero_share = j;
  zero_share["compute_demand"]["share"] = 0;
  expect_error(zero_share, "compute_demand.share");
  expect_error(nlohmann::json::array(), "not a JSON object");
  auto bad_run = j;
  bad_run["sm_share_curve"][0]["runs"][1]["req_per_s"] = "fast";
  expect_error(bad_run, "sm_share_curve[].runs[].req_per_s");
  // A file from before --repeat (no runs, spread, verdict, p99 limits) still reads.
  auto older = j;
  for (auto& point : older["sm_share_curve"]) {
    point.erase("runs");
    point.erase("spread");
    point.erase("verdict");
  }
  older["compute_demand"].erase("p99_tolerance");
  older["compute_demand"].erase("p99_limit");
  const auto back = profile_from_json(older);
  EXPECT_TRUE(back.sm_share_curve[0].runs.empty());
  EXPECT_FALSE(back.compute_demand.p99_limit);
}

// Issue 38, item 7: each value out of its range is refused naming the field (they made plans from
// nonsense; under UBSan 1e30 into uint64 was undefined behaviour), through the reader the CLI runs.
TEST(WorkloadProfile, ValuesOutOfRangeAreRefusedNamingTheField) {
  const std::string good = profile_to_json(sample()).dump();
  auto error_with = [&](const std::string& pointer, const std::string& value) -> std::string {
    auto j = nlohmann::json::parse(good);
    j[nlohmann::json::json_pointer(pointer)] = nlohmann::json::parse(value);
    try {
      read_workload_profile(j.dump(), "p.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/memory/peak_bytes", "-1"},           {"/memory/with_headroom_bytes", "1e30"},
      {"/memory/with_headroom_bytes", "1.5"}, {"/memory/with_headroom_bytes", "1099511627777"},
      {"/activity/sm_active", "-0.5"},        {"/activity/sm_active", "2"},
      {"/activity/utilization", "1.01"},      {"/activity/samples", "-3"},
      {"/requests/req_per_s", "-1"},          {"/requests/p99_ms", "-2.5"},
      {"/requests/count", "1e30"},            {"/host_cpu_cores", "-1"},
      {"/window/seconds", "-1"},              {"/report/malformed_lines", "-1"},
      {"/sm_share_curve/0/pct", "0"},         {"/sm_share_curve/0/pct", "1e30"},
      {"/sm_share_curve/0/p99_ms", "-1"},     {"/sm_share_curve/0/runs/0/req_per_s", "-1"},
      {"/compute_demand/share", "1.5"},       {"/compute_demand/p99_limit", "-1"},
      {"/requests/req_per_s", "true"},  // nlohmann's get<double> took true as 1
  };
  for (const auto& [pointer, value] : cases) {
    std::string field = pointer.substr(1);
    for (char& c : field) c = c == '/' ? '.' : c;
    if (pointer.rfind("/sm_share_curve", 0) == 0) field = pointer.find("runs") != std::string::npos ? "sm_share_curve[].runs[]" : "sm_share_curve[]";
    if (pointer.rfind("/host_cpu_cores", 0) == 0) field = "profile.host_cpu_cores";
    const std::string error = error_with(pointer, value);
    EXPECT_NE(error.find(field), std::string::npos) << pointer << " = " << value << ": " << error;
    EXPECT_NE(error.find(" must be "), std::string::npos) << pointer << " = " << value << ": " << error;
  }
  EXPECT_NE(error_with("/schema_version", "1.5").find("schema_version 1.5"), std::string::npos);
  EXPECT_NE(error_with("/schema_version", "true").find("schema_version true"), std::string::npos);
  // A duplicated key, which nlohmann::json::parse (the CLI's reader before) kept the last of silently.
  std::string duplicated = good;
  duplicated.replace(duplicated.find("\"name\""), 6, R"("name": "shadow", "name")");
  try {
    read_workload_profile(duplicated, "p.json");
    ADD_FAILURE() << "accepted a duplicated key";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.json: key \"name\" given twice"), std::string::npos) << e.what();
  }
  EXPECT_EQ(profile_to_json(read_workload_profile(good, "p.json")).dump(), good);
}

TEST(WorkloadProfile, PlanEntrySaysHowComputeWasMeasured) {
  const auto y = plan_entry_yaml(sample());
  EXPECT_NE(y.find("workloads:\n  - name: resnet18-b1\n    memory: 880MiB\n    compute: 0.12  # smallest MPS thread share"), std::string::npos) << y;
  EXPECT_NE(y.find("# requests: 431 req/s, p50 2.27 ms, p99 2.5 ms"), std::string::npos) << y;
  auto p = sample();
  p.requests.reset();
  p.compute_demand = {0.41, "utilization", std::nullopt, std::nullopt, std::nullopt};
  const auto u = plan_entry_yaml(p);
  EXPECT_NE(u.find("request latency not reported"), std::string::npos) << u;
  EXPECT_NE(u.find("an upper bound"), std::string::npos) << u;
}

TEST(WorkloadProfile, PlanEntryNamesTheProfileFileWhenOneWasWritten) {
  EXPECT_EQ(plan_entry_yaml(sample()).find("\n    profile:"), std::string::npos);
  const auto y = plan_entry_yaml(sample(), "out/r18 \"b1\".json");
  EXPECT_NE(y.find("\n    compute: 0.12  # smallest MPS thread share with req/s and p50 within 10% and p99 within 30% of the "
                   "largest share\n    profile: \"out/r18 \\\"b1\\\".json\"  # relative to the scenario file\n"),
            std::string::npos)
      << y;
}

TEST(HostCpu, ReadsUtimeAndStimeFromProcStat) {
  // The command name may hold spaces and parentheses.
  const std::string stat = "4242 (python3 (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 1000 0 0";
  EXPECT_DOUBLE_EQ(*cpu_seconds_from_stat(stat, 100), 3.0);
  EXPECT_FALSE(cpu_seconds_from_stat("4242 (x) S 1 2", 100));
  EXPECT_FALSE(cpu_seconds_from_stat("garbage", 100));
  EXPECT_FALSE(cpu_seconds_from_stat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 1x 5 0", 100));
  EXPECT_TRUE(LinuxProcReader().cpu_seconds(getpid()));  // this test's own process
}

TEST(HostCpu, ReadsTheHostsBusyIdleAndStolenTimeFromProcStat) {
  // user nice system idle iowait irq softirq steal guest guest_nice, in ticks of 1/100 s.
  const auto t = host_cpu_times_from_stat("cpu  2000 100 400 9000 50 0 20 300 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n", 100);
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->busy, 25.2);  // user + nice + system + irq + softirq
  EXPECT_DOUBLE_EQ(t->idle, 90.5);  // idle + iowait
  EXPECT_DOUBLE_EQ(t->steal, 3.0);
  // Old kernels have no steal field: none stolen.
  EXPECT_DOUBLE_EQ(host_cpu_times_from_stat("cpu  10 0 10 80 0 0 0", 100)->steal, 0.0);
  EXPECT_FALSE(host_cpu_times_from_stat("cpu0 1 2 3 4", 100));  // not the whole host's line
  EXPECT_FALSE(host_cpu_times_from_stat("cpu  1 2", 100));
  EXPECT_FALSE(host_cpu_times_from_stat("cpu  1 2 x 4", 100));
  EXPECT_FALSE(host_cpu_times_from_stat("", 100));
  EXPECT_FALSE(host_cpu_times_from_stat("cpu  1 2 3 4", 0));
  EXPECT_TRUE(LinuxProcReader().host_cpu_times());  // this machine's
}

}  // namespace
}  // namespace gpupack::measure
