#pragma once
// The view of a plan that the render targets work from, read from the plan's documented JSON
// (docs/plan-schema.md) so that `gpupack render plan.json` and `gpupack plan --render` share one path.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "contract/sharing.hpp"
#include "core/gpu_catalog.hpp"

namespace gpupack {

struct RenderClient {
  std::string workload;  // DNS-1123 label (checked)
  int replica = 0;
  std::string tenant;
  std::uint64_t memory_limit_bytes = 0;
  std::optional<int> active_thread_percentage;  // MPS only
};

struct RenderSlice {
  std::string id;                   // unique within its GPU, script-safe
  std::optional<std::string> profile;  // MIG profile; none for a whole GPU
  std::optional<int> mig_start;
  Sharing sharing = Sharing::exclusive;
  std::uint64_t memory_bytes = 0;
  std::vector<RenderClient> clients;
};

struct RenderMigInstance {
  std::string profile;
  int start = 0;
  int size = 0;
};

struct RenderGpu {
  std::string id;     // script-safe
  std::string node;   // DNS-1123 label
  int index = 0;      // index of this GPU on its node (order of appearance)
  std::string model;  // catalog model name
  GpuMode mode = GpuMode::exclusive;
  std::vector<RenderMigInstance> mig;
  std::vector<RenderSlice> slices;

  bool uses_mig() const { return !mig.empty(); }
};

struct RenderPlan {
  std::vector<RenderGpu> gpus;
  std::vector<std::string> nodes;  // in order of first appearance
};

// The plan schema version this reader accepts ($.schema_version; docs/plan-schema.md).
inline constexpr int kPlanSchemaVersion = 1;

// Every string that reaches a rendered file is checked against what it can be: the schema version, a
// catalog model (kept as its canonical name), a MIG profile of that model, DNS-1123 node and workload
// names, a label-value tenant, plain ids. Throws InputError naming the JSON path and what was expected
// (input quoted back through quote_input). The one-argument form uses the built-in catalog.
RenderPlan render_plan_from_json(const nlohmann::json& plan, const GpuCatalog& catalog);
RenderPlan render_plan_from_json(const nlohmann::json& plan);

}  // namespace gpupack
