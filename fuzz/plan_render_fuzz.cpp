// libFuzzer target: any bytes as a plan JSON, through the reader and every render target. Two checks:
// 1. What the plan reader accepts renders without an exception, into relative paths without "..", with
//    shell scripts whose quotes all close and YAML files that parse.
// 2. The second line of defence, without the reader: the fuzz bytes go raw into one string field of a
//    fixed plan (model, node, ids, MIG profile, workload, tenant) and the MPS scripts must have the same
//    skeleton (code outside comments and single quotes) as with a harmless value, and the YAML targets
//    must still parse and give back the value.
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "fuzz/shell_skeleton.hpp"
#include "io/json_document.hpp"
#include "contract/plan_json.hpp"
#include "render/render_targets.hpp"
#include "render/targets.hpp"

namespace {

using namespace gpupack;

[[noreturn]] void fail(const std::string& what, const std::string& file) {
  std::fprintf(stderr, "plan_render_fuzz: %s in %s\n", what.c_str(), file.c_str());
  std::abort();
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void check_rendered(const FileTree& files) {
  for (const auto& f : files) {
    if (f.path.empty() || f.path.front() == '/' || f.path.find("..") != std::string::npos) fail("unsafe path", f.path);
    if (ends_with(f.path, ".sh") && !fuzzing::shell_skeleton(f.content).balanced) fail("unclosed quote", f.path);
    if (ends_with(f.path, ".yaml")) {
      try {
        YAML::LoadAll(f.content);
      } catch (const YAML::Exception& e) {
        fail(std::string("YAML does not parse: ") + e.what(), f.path);
      }
    }
  }
}

// One placed replica of workload `name` on tenant "t" with 1 GiB and an MPS thread cap.
DocPlacement placed(const std::string& name, int active_thread_percentage) {
  DocPlacement c;
  c.workload = name;
  c.tenant = "t";
  c.memory_limit_bytes = 1ULL << 30;
  c.active_thread_percentage = active_thread_percentage;
  return c;
}

DocSlice mps_slice(std::optional<std::string> profile, std::optional<int> start, std::uint64_t memory_bytes) {
  DocSlice s;
  s.id = "s0";
  s.profile = std::move(profile);
  s.mig_start = start;
  s.sharing = Sharing::mps;
  s.memory_bytes = memory_bytes;
  return s;
}

DocGpu a100(const std::string& id, int index, GpuMode mode) {
  DocGpu g;
  g.id = id;
  g.node = "node-0";
  g.index = index;
  g.model = "A100-SXM4-80GB";
  g.mode = mode;
  return g;
}

PlanDocument fixed_plan() {
  PlanDocument p;
  DocGpu mig = a100("gpu0", 0, GpuMode::mig_mps);
  mig.mig = {{"3g.40gb", 4, 4}};
  mig.slices.push_back(mps_slice(std::string("3g.40gb"), 4, 40ULL << 30));
  mig.slices.back().clients.push_back(placed("w", 50));
  DocGpu whole = a100("gpu1", 1, GpuMode::mps);
  whole.slices.push_back(mps_slice(std::nullopt, std::nullopt, 80ULL << 30));
  whole.slices.back().clients.push_back(placed("v", 25));
  p.gpus = {mig, whole};
  p.nodes = {"node-0"};
  return p;
}

void set_field(PlanDocument& p, int which, const std::string& value) {
  DocGpu& g = p.gpus[0];
  switch (which) {
    case 0: g.model = value; break;
    case 1: g.node = value, p.gpus[1].node = value, p.nodes = {value}; break;
    case 2: g.id = value; break;
    case 3: g.slices[0].id = value; break;
    case 4: g.slices[0].profile = value, g.mig[0].profile = value; break;
    case 5: g.slices[0].clients[0].workload = value; break;
    default: g.slices[0].clients[0].tenant = value; break;
  }
}

bool printable(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) return false;
  }
  return true;
}

void check_raw_value(int which, const std::string& value) {
  PlanDocument hostile = fixed_plan();
  PlanDocument harmless = fixed_plan();
  set_field(hostile, which, value);
  set_field(harmless, which, "x");
  const TargetOutput a = render_mps_target(hostile);
  const TargetOutput b = render_mps_target(harmless);
  if (a.files.size() != b.files.size()) fail("a different number of MPS files", "mps/");
  for (size_t i = 0; i < a.files.size(); ++i) {
    if (!ends_with(a.files[i].path, ".sh")) continue;
    const auto sa = fuzzing::shell_skeleton(a.files[i].content);
    if (!sa.balanced || sa.text != fuzzing::shell_skeleton(b.files[i].content).text) {
      fail("input outside quoting (skeleton differs)", a.files[i].path);
    }
  }
  // YAML: the emitter quotes what it must; the agent config's comment line is escaped.
  if (!printable(value)) return;  // yaml-cpp's emitter is only asked to round-trip printable text
  for (const auto& f : render_agent_config_target(hostile).files) {
    if (!ends_with(f.path, "node.yaml")) continue;  // agent.yaml: the DaemonSet, checked as YAML above
    const YAML::Node doc = YAML::Load(f.content);
    if (!doc["version"] || doc["version"].as<int>() != 1) fail("the comment line broke the document", f.path);
  }
  if (which == 5) {
    GpuCatalog catalog = builtin_catalog();
    for (const auto& f : render_workloads_target(hostile, catalog, Consumer::gpupack_agent).files) {
      if (!ends_with(f.path, ".yaml")) continue;
      bool found = false;
      for (const auto& doc : YAML::LoadAll(f.content)) {
        const YAML::Node name = doc["metadata"]["labels"]["app.kubernetes.io/name"];
        found = found || (name && name.as<std::string>() == value);
      }
      if (!found) fail("the workload name did not round-trip", f.path);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const GpuCatalog catalog = builtin_catalog();
  static const std::vector<RenderTarget> all = parse_render_targets("all");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const PlanDocument plan = read_plan_json(parse_json_document(text, "fuzz.json"), catalog);
    check_rendered(render_targets(plan, all, catalog));
  } catch (const InputError&) {
    // rejected with a message: fine
  }
  if (size > 0 && size <= 256) check_raw_value(data[0] % 7, std::string(text.substr(1)));
  return 0;
}
