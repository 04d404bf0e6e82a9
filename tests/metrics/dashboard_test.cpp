// deploy/grafana/gpupack-utilisation.json queries only series the agent exports: every gpupack_* name in
// every PromQL expression (panels and template variables) is a family of /metrics, rendered here from a
// fake machine with GPM, MIG, MPS and time-sliced processes. Renaming a family breaks this test.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "gpu/fake_gpu_backend.hpp"
#include "os/filesystem.hpp"
#include "metrics/node_snapshot.hpp"

namespace gpupack {
namespace {

const GpuCatalog kCatalog = builtin_catalog();

using nlohmann::json;

std::set<std::string> exported_families() {
  NodeSnapshot s;
  auto machine = FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/two-gpus.json");
  machine->devices();
  s.devices = machine->devices();
  std::set<std::string> names;
  std::istringstream in(render_node_metrics(s, kCatalog));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# HELP ", 0) == 0) names.insert(line.substr(7, line.find(' ', 7) - 7));
  }
  return names;
}

// Every PromQL expression: panels' targets (rows nest panels) and query variables.
void collect(const json& j, std::vector<std::string>& exprs) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if ((it.key() == "expr" || it.key() == "definition") && it.value().is_string()) exprs.push_back(it.value());
      if (it.key() == "query" && it.value().is_object() && it.value().contains("query")) exprs.push_back(it.value()["query"]);
      collect(it.value(), exprs);
    }
  } else if (j.is_array()) {
    for (const auto& x : j) collect(x, exprs);
  }
}

TEST(GrafanaDashboard, EveryQueryNamesOnlySeriesTheAgentExports) {
  std::ifstream in(DASHBOARD);
  ASSERT_TRUE(in) << DASHBOARD;
  const json dashboard = json::parse(in);
  std::vector<std::string> exprs;
  collect(dashboard, exprs);
  ASSERT_GE(exprs.size(), 15u);
  const std::set<std::string> exported = exported_families();
  ASSERT_TRUE(exported.count("gpupack_slice_sm_allotted_unused_ratio"));
  const std::regex series("gpupack_[a-z0-9_]+");
  std::set<std::string> used;
  for (const auto& e : exprs) {
    bool any = false;
    for (std::sregex_iterator it(e.begin(), e.end(), series), end; it != end; ++it) {
      any = true;
      used.insert(it->str());
      EXPECT_TRUE(exported.count(it->str())) << it->str() << " in " << e << " is not exported by the agent";
    }
    EXPECT_TRUE(any) << "query without a gpupack series: " << e;
  }
  // The dashboard shows what the issue asks for: activity, allotment and waste per GPU, slice and pod.
  for (const char* needed : {"gpupack_gpu_sm_active_ratio", "gpupack_gpu_utilization_ratio", "gpupack_slice_sm_allotted_ratio",
                             "gpupack_slice_sm_allotted_unused_ratio", "gpupack_slice_memory_allotted_unused_ratio",
                             "gpupack_process_sm_utilization_ratio", "gpupack_process_memory_allocated_bytes"}) {
    EXPECT_TRUE(used.count(needed)) << needed;
  }
}

}  // namespace
}  // namespace gpupack
