#include "contract/plan_json.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace gpupack {

using nlohmann::json;

namespace {
// tests/render/data/plan-mixed.json: every mode (MPS with unequal slices, MIG with MPS, exclusive and
// time-slicing instances, time-slicing on a whole GPU, MPS on a pre-Volta P100).
PlanDocument mixed_plan() {
  std::ifstream in(GPUPACK_TEST_DATA "/plan-mixed.json");
  std::stringstream text;
  text << in.rdbuf();
  return read_plan_json(json::parse(text.str()), builtin_catalog());
}
}  // namespace

TEST(PlanJsonReader, ReadsGpusSlicesAndPlacements) {
  const PlanDocument p = mixed_plan();
  ASSERT_EQ(p.gpus.size(), 4u);
  EXPECT_EQ(p.nodes, (std::vector<std::string>{"node-0", "node-1", "node-2"}));
  EXPECT_EQ(p.gpus[1].index, 1);
  EXPECT_EQ(p.gpus[2].index, 0);
  EXPECT_EQ(p.gpus[1].mig.size(), 4u);
  EXPECT_EQ(p.gpus[0].slices[0].clients.size(), 3u);
  EXPECT_EQ(p.gpus[0].slices[0].clients[2].active_thread_percentage, 50);
  EXPECT_FALSE(p.gpus[1].slices[1].clients[0].active_thread_percentage.has_value());
  EXPECT_EQ(p.gpus[1].slices[0].profile, "3g.40gb");
}

namespace {
std::string error_of(const json& plan) {
  try {
    read_plan_json(plan, builtin_catalog());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
json minimal() {
  return json::parse(R"({"schema_version":1,"gpus":[{"id":"gpu0","node":"node-0","model":"H100-SXM5-80GB","mode":"mps",
    "slices":[{"id":"0","profile":null,"sharing":"mps","memory_bytes":1000}]}],
    "placements":[{"workload":"w","replica":0,"tenant":"t","gpu":"gpu0","slice":"0","memory_limit_bytes":10,
    "mps_active_thread_percentage":50}]})");
}
}  // namespace

TEST(PlanJsonReader, RejectsBadPlansNamingThePath) {
  EXPECT_EQ(error_of(minimal()), "");
  EXPECT_NE(error_of(json::array()).find("$: expected a JSON object"), std::string::npos);
  json p = minimal();
  p.erase("gpus");
  EXPECT_NE(error_of(p).find("$.gpus: expected"), std::string::npos);
  p = minimal();
  p["gpus"][0]["mode"] = "turbo";
  EXPECT_NE(error_of(p).find("$.gpus[0].mode"), std::string::npos);
  p = minimal();
  p["gpus"][0]["id"] = "gpu0; rm -rf /";
  EXPECT_NE(error_of(p).find("$.gpus[0].id 'gpu0; rm -rf /' is not a valid id"), std::string::npos);
  p = minimal();
  p["gpus"][0]["node"] = "Node_0";
  EXPECT_NE(error_of(p).find("$.gpus[0].node 'Node_0' is not a DNS-1123 subdomain"), std::string::npos);
  p = minimal();
  p["placements"][0]["workload"] = "$(id)";
  EXPECT_NE(error_of(p).find("$.placements[0].workload"), std::string::npos);
  p = minimal();
  p["placements"][0]["gpu"] = "gpu9";
  EXPECT_NE(error_of(p).find("'gpu9' is not one"), std::string::npos);
  p = minimal();
  p["placements"][0]["slice"] = "7";
  EXPECT_NE(error_of(p).find("'7' is not one"), std::string::npos);
  p = minimal();
  p["placements"][0]["mps_active_thread_percentage"] = 150;
  EXPECT_NE(error_of(p).find("1..100"), std::string::npos);
  p = minimal();
  p["gpus"][0]["slices"][0]["memory_bytes"] = -1;
  EXPECT_NE(error_of(p).find("memory_bytes"), std::string::npos);
  p = minimal();
  p["gpus"].push_back(p["gpus"][0]);
  EXPECT_NE(error_of(p).find("repeats"), std::string::npos);
  p = minimal();
  p["gpus"][0]["slices"][0]["predicted_sm_active"] = 1.5;
  EXPECT_NE(error_of(p).find("$.gpus[0].slices[0].predicted_sm_active: expected a share from 0 to 1 or null"),
            std::string::npos)
      << error_of(p);
  p["gpus"][0]["slices"][0]["predicted_sm_active"] = nullptr;
  EXPECT_EQ(error_of(p), "");
}

// Issue 12, reproducers: strings a hand-edited plan puts into rendered files are checked against what
// they can be, and the schema version is the one this reader knows.
TEST(PlanJsonReader, RejectsAnInjectedModelNamingThePath) {
  json p = minimal();
  p["gpus"][0]["model"] = "H100\ntouch pwned\n#";
  const std::string error = error_of(p);
  EXPECT_NE(error.find("$.gpus[0].model: expected a GPU model of the catalog"), std::string::npos) << error;
  EXPECT_NE(error.find("'H100\\x0atouch pwned\\x0a#' is not one"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(PlanJsonReader, KeepsTheCatalogsCanonicalModelName) {
  json p = minimal();
  p["gpus"][0]["model"] = "h100-80gb";  // an alias
  EXPECT_EQ(read_plan_json(p, builtin_catalog()).gpus[0].model, "H100-SXM5-80GB");
}

TEST(PlanJsonReader, RejectsMigProfilesTheModelDoesNotHave) {
  json p = minimal();
  p["gpus"][0]["mode"] = "mig+mps";
  p["gpus"][0]["mig"] = json::parse(R"([{"profile":"3g.40gb","start":4,"size":4}])");
  p["gpus"][0]["slices"][0]["profile"] = "3g.40gb";
  p["gpus"][0]["slices"][0]["start"] = 4;
  EXPECT_EQ(error_of(p), "");
  for (const char* bad : {"bogus", "4g.40gb/../../x", "3g.40gb'; reboot; '"}) {
    json q = p;
    q["gpus"][0]["slices"][0]["profile"] = bad;
    EXPECT_NE(error_of(q).find("$.gpus[0].slices[0].profile: expected a MIG profile of H100-SXM5-80GB"), std::string::npos)
        << bad;
    q = p;
    q["gpus"][0]["mig"][0]["profile"] = bad;
    EXPECT_NE(error_of(q).find("$.gpus[0].mig[0].profile: expected a MIG profile"), std::string::npos) << bad;
  }
  json q = p;
  q["gpus"][0]["model"] = "T4-16GB";
  EXPECT_NE(error_of(q).find("$.gpus[0].mode: expected a mode without MIG: T4-16GB has no MIG"), std::string::npos);
}

TEST(PlanJsonReader, RejectsOtherSchemaVersions) {
  json p = minimal();
  p["schema_version"] = 999;
  EXPECT_NE(error_of(p).find("$.schema_version: expected 1"), std::string::npos) << error_of(p);
  p.erase("schema_version");
  EXPECT_NE(error_of(p).find("$.schema_version: expected a value"), std::string::npos) << error_of(p);
}

TEST(PlanJsonReader, RejectsIdsThatLeaveTheirDirectoryAndBadTenants) {
  json p = minimal();
  p["gpus"][0]["slices"][0]["id"] = "../../etc";
  p["placements"][0]["slice"] = "../../etc";
  EXPECT_NE(error_of(p).find("$.gpus[0].slices[0].id"), std::string::npos);
  p = minimal();
  p["placements"][0]["tenant"] = "a\x1b[2Jb";
  EXPECT_NE(error_of(p).find("$.placements[0].tenant 'a\\x1b[2Jb' is not a valid Kubernetes label value"),
            std::string::npos)
      << error_of(p);
  p = minimal();
  p["gpus"][0]["slices"].push_back(p["gpus"][0]["slices"][0]);
  EXPECT_NE(error_of(p).find("a slice id unique within its GPU"), std::string::npos);
}

TEST(PlanJsonReader, QuotesBackAtMost200BytesOfAHugeName) {
  json p = minimal();
  p["placements"][0]["workload"] = std::string(1'000'000, 'A');
  const std::string error = error_of(p);
  EXPECT_LT(error.size(), 600u);
  EXPECT_NE(error.find("... (1000000 bytes)"), std::string::npos);
}

}  // namespace gpupack

namespace gpupack {

// Issue 34: the consumer a plan was made for, and what each consumer places, survive a round trip.
TEST(PlanJsonReader, ReadsTheConsumerThePlanWasMadeForAndTheComparisonOfConsumers) {
  EXPECT_EQ(read_plan_json(minimal(), builtin_catalog()).deploy_with, Consumer::gpupack_agent);  // older plans
  json p = minimal();
  p["deploy_with"] = "nvidia-device-plugin";
  p["consumers"] = json::parse(R"([{"consumer":"dra","gpus_used":2,"placed":38,"unplaced":2,"gpus_needed":3,
                                    "cost_per_hour":null}])");
  const PlanDocument plan = read_plan_json(p, builtin_catalog());
  EXPECT_EQ(plan.deploy_with, Consumer::nvidia_device_plugin);
  ASSERT_EQ(plan.consumers.size(), 1u);
  EXPECT_EQ(plan.consumers[0], (DocConsumerRow{Consumer::dra, 2, 38, 2, 3, std::nullopt}));
  EXPECT_EQ(read_plan_json(json::parse(plan_json_text(plan)), builtin_catalog()), plan);
  p["deploy_with"] = "kubevirt";
  EXPECT_NE(error_of(p).find("$.deploy_with: expected one of gpupack-agent, nvidia-device-plugin, dra ('kubevirt' is not one)"),
            std::string::npos)
      << error_of(p);
}

}  // namespace gpupack
