#include "io/scenario_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/mig_layout.hpp"
#include "core/mig_request.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "contract/names.hpp"
#include "io/scenario_yaml_reader.hpp"
#include "io/yaml_fields.hpp"

namespace gpupack {

namespace {

using scenario_yaml::Reader;

const std::vector<std::string> kTopKeys{"cuda", "context_overhead", "fleet", "workloads"};
const std::vector<std::string> kFleetKeys{"model", "count", "node_prefix", "gpus_per_node", "cost_per_hour",
                                          "cpu_cores", "mig", "node_names", "deploy_with"};
const std::vector<std::string> kWorkloadKeys{"name",   "replicas",  "memory",       "compute", "latency_slo_ms",
                                             "p99_alone_ms", "slo_margin", "tenant", "isolation", "pattern", "group", "profile", "deploy"};
const std::vector<std::string> kDeployKeys{"image", "namespace", "kind", "schedule", "cpu", "memory"};

// A node prefix from a model name ("L4-3Q" -> "l4-3q"): the default of a `count: auto` entry, so that the
// nodes of different GPU types never share a name.
std::string node_prefix_of(const std::string& model) {
  std::string s;
  for (char c : model) {
    const bool alnum = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (alnum) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!s.empty() && s.back() != '-') s += '-';
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "node" : s.substr(0, 50);
}

// `mig: allowed | off | <layout>` (issue 32): a layout is profiles as `gpupack mig validate` takes them,
// separated by commas or spaces ("3g.40gb,2g.20gb,2x1g.10gb"), and must fit the entry's model.
void parse_fleet_mig(const Reader& r, const YAML::Node& n, FleetEntry& f) {
  const std::string text = r.scalar(n, "mig");
  if (text == "allowed") return;
  if (text == "off") {
    f.mig = FleetMig::off;
    return;
  }
  if (!f.model.mig) {
    r.fail(n, "'mig' of " + f.model.name + ": this GPU has no MIG; accepted: allowed, off");
  }
  std::vector<std::string> tokens;
  std::string token;
  for (char c : text + ",") {
    if (c == ',' || c == ' ') {
      if (!token.empty()) tokens.push_back(token);
      token.clear();
    } else {
      token += c;
    }
  }
  if (tokens.empty()) r.fail(n, "'mig' must be allowed, off or a MIG layout of " + f.model.name + " (e.g. 3g.40gb,2g.20gb,2x1g.10gb)");
  f.mig_layout = r.located(n, [&] {
    try {
      return parse_mig_request(f.model, tokens);
    } catch (const InputError& e) {
      throw InputError("'mig' must be allowed, off or a MIG layout of " + f.model.name + " (e.g. 3g.40gb,2g.20gb,2x1g.10gb): " + e.what());
    }
  });
  const MigValidation v = validate_layout(*f.model.mig, f.mig_layout);
  if (!v.valid) r.fail(n, "'mig' layout " + quote_input(text) + " does not fit one " + f.model.name + ": " + v.reason);
  f.mig = FleetMig::fixed;
}

// `node_names:` the Kubernetes names of the pool's nodes, one per gpus_per_node GPUs, in order.
void parse_node_names(const Reader& r, const YAML::Node& n, bool as_needed, FleetEntry& f) {
  if (as_needed) r.fail(n, "'node_names' needs a whole 'count' (the nodes of an 'auto' pool are not known in advance)");
  if (!n.IsSequence() || n.size() == 0) r.fail(n, "'node_names' must be a list of Kubernetes node names");
  const long nodes = (f.count + f.gpus_per_node - 1) / std::max(1, f.gpus_per_node);
  if (static_cast<long>(n.size()) != nodes) {
    r.fail(n, "'node_names' lists " + std::to_string(n.size()) + " node(s), but count " + std::to_string(f.count) +
                  " at gpus_per_node " + std::to_string(f.gpus_per_node) + " makes " + std::to_string(nodes));
  }
  for (const auto& item : n) {
    const std::string name = r.scalar(item, "node_names");
    r.located(item, [&] { require_dns1123_subdomain("node name", name); });
    f.node_names.push_back(name);
  }
}

// `deploy_with: gpupack-agent | nvidia-device-plugin | dra` (docs/consumers.md): what serves the pool's
// GPUs to pods, so the plan keeps to what it can express.
void parse_fleet_deploy_with(const Reader& r, const YAML::Node& n, FleetEntry& f) {
  const std::string text = r.scalar(n, "deploy_with");
  const std::optional<Consumer> c = parse_consumer(text);
  if (!c) r.fail(n, "'deploy_with' '" + quote_input(text) + "' is not a consumer; accepted: " + std::string(kConsumerNames));
  f.deploy_with = *c;
  f.deploy_with_given = true;
}

// One fleet entry; `as_needed` is set when its count is `auto` (as many GPUs of it as the plan needs).
FleetEntry parse_fleet_entry(const Reader& r, const YAML::Node& n, const GpuCatalog& catalog, bool& as_needed) {
  if (!n.IsMap()) r.fail(n, "each fleet entry must be a map with 'model' and 'count'");
  r.check_keys(n, kFleetKeys, "a fleet entry");
  if (!n["model"]) r.fail(n, "a fleet entry needs 'model'");
  FleetEntry f;
  const YAML::Node model = n["model"];
  f.model = r.located(model, [&] { return catalog.get(r.scalar(model, "model")); });
  as_needed = n["count"] && n["count"].IsScalar() && n["count"].Scalar() == "auto";
  if (n["count"] && !as_needed) {
    if (!n["count"].IsScalar() || n["count"].Scalar().find_first_not_of("0123456789+-") != std::string::npos) {
      r.fail(n["count"], "'count' must be a whole number or 'auto' (as many as the plan needs), got '" +
                             quote_input(r.scalar(n["count"], "count")) + "'");
    }
    f.count = static_cast<int>(r.integer(n["count"], "count", 1, kMaxFleetGpus));
  }
  if (n["node_prefix"]) f.node_prefix = r.name(n["node_prefix"], "node_prefix");
  else if (as_needed) f.node_prefix = node_prefix_of(f.model.name);
  // A fleet of fewer than 8 GPUs is, unless it says otherwise, one node: its cpu_cores are shared by
  // `count` GPUs, not by 8 (issue 32: `count: 1, cpu_cores: 16` is 16 cores per GPU).
  if (!as_needed) f.gpus_per_node = std::min(f.count, f.gpus_per_node);
  // One fractional GPU per instance (one G6f instance carries one fraction).
  if (f.model.is_fractional()) f.gpus_per_node = 1;
  if (n["gpus_per_node"]) f.gpus_per_node = static_cast<int>(r.integer(n["gpus_per_node"], "gpus_per_node", 1, 64));
  if (n["cost_per_hour"]) f.cost_per_hour = r.number(n["cost_per_hour"], "cost_per_hour", 0, 1e6);
  if (n["cpu_cores"]) f.cpu_cores = r.number(n["cpu_cores"], "cpu_cores", 0, 4096);
  if (n["mig"]) parse_fleet_mig(r, n["mig"], f);
  if (n["node_names"]) parse_node_names(r, n["node_names"], as_needed, f);
  if (n["deploy_with"]) parse_fleet_deploy_with(r, n["deploy_with"], f);
  return f;
}

// `deploy:` how the workload's pods run on Kubernetes (docs/workloads.md).
DeploySpec parse_deploy(const Reader& r, const YAML::Node& n, const Workload& w) {
  if (!n.IsMap()) r.fail(n, "'deploy' must be a map (" + std::string("image, namespace, kind, schedule, cpu, memory") + ")");
  r.check_keys(n, kDeployKeys, "deploy");
  DeploySpec d;
  if (n["image"]) {
    d.image = r.scalar(n["image"], "image");
    r.located(n["image"], [&] { require_image_reference("deploy.image", *d.image); });
  }
  if (n["namespace"]) d.namespace_ = r.name(n["namespace"], "namespace");
  if (n["kind"]) {
    const std::string kind = r.scalar(n["kind"], "kind");
    const auto k = parse_deploy_kind(kind);
    if (!k) r.fail(n["kind"], "'kind' must be one of " + std::string(kDeployKindNames) + ", got '" + quote_input(kind) + "'");
    d.kind = *k;
  }
  if (d.kind != DeployKind::deployment && w.latency_slo_ms) {
    r.fail(n["kind"], "a " + std::string(to_string(d.kind)) +
                          " runs to completion; a workload with latency_slo_ms serves traffic (kind: deployment)");
  }
  if (n["schedule"]) {
    if (d.kind != DeployKind::cron_job) r.fail(n["schedule"], "'schedule' needs kind: cronjob");
    d.schedule = r.scalar(n["schedule"], "schedule");
    r.located(n["schedule"], [&] { require_cron_schedule("deploy.schedule", *d.schedule); });
  } else if (d.kind == DeployKind::cron_job) {
    r.fail(n, "kind: cronjob needs a 'schedule' (e.g. \"0 3 * * *\")");
  }
  if (n["cpu"]) d.cpu = r.number(n["cpu"], "cpu", 0, 1024);
  if (d.cpu && *d.cpu <= 0) r.fail(n["cpu"], "'cpu' must be above 0 (cores each pod requests)");
  if (n["memory"]) d.host_memory_bytes = r.size(n["memory"], "memory", 16384ull * kGiB);
  return d;
}

Workload parse_workload(const Reader& r, const YAML::Node& n) {
  if (!n.IsMap()) r.fail(n, "each workload must be a map with at least 'name', 'memory' and 'compute'");
  r.check_keys(n, kWorkloadKeys, "a workload");
  // Memory and compute may be left out: a profile (`profile:` or `plan --profiles DIR`) supplies them, and
  // the CLI refuses an entry that none filled (attach_profiles).
  if (!n["name"]) r.fail(n, "a workload needs 'name'");
  Workload w;
  w.name = r.name(n["name"], "name");
  if (n["replicas"]) w.replicas = static_cast<int>(r.integer(n["replicas"], "replicas", 1, kMaxTotalReplicas));
  if (n["memory"]) w.memory_bytes = r.size(n["memory"], "memory", kMaxWorkloadMemory);
  if (n["compute"]) w.compute = r.number(n["compute"], "compute", 0, 1);
  if (n["profile"]) w.profile_path = r.scalar(n["profile"], "profile");
  if (n["latency_slo_ms"]) w.latency_slo_ms = r.number(n["latency_slo_ms"], "latency_slo_ms", 0, 1e6);
  if (n["p99_alone_ms"]) {
    if (!n["latency_slo_ms"]) r.fail(n["p99_alone_ms"], "'p99_alone_ms' needs 'latency_slo_ms'");
    w.p99_alone_ms = r.number(n["p99_alone_ms"], "p99_alone_ms", 0, 1e6);
  }
  if (n["slo_margin"]) {
    if (!n["latency_slo_ms"]) r.fail(n["slo_margin"], "'slo_margin' needs 'latency_slo_ms'");
    w.slo_margin = r.fraction(n["slo_margin"], "slo_margin", 0.9);
  }
  if (n["tenant"]) w.tenant = r.name(n["tenant"], "tenant");
  if (n["isolation"]) {
    w.isolation = r.located(n["isolation"], [&] { return parse_isolation(r.scalar(n["isolation"], "isolation")); });
  }
  if (n["pattern"]) {
    w.pattern = r.located(n["pattern"], [&] { return parse_usage_pattern(r.scalar(n["pattern"], "pattern")); });
  }
  if (n["group"]) {
    w.group = r.name(n["group"], "group");
    if (needs_own_slice(w.isolation)) {
      r.fail(n["group"], "'group' shares a process, which isolation " + std::string(to_string(w.isolation)) +
                             " forbids; drop one of them");
    }
  }
  if (n["deploy"]) w.deploy = parse_deploy(r, n["deploy"], w);
  return w;
}

// yaml-cpp parses nesting by recursion: refuse input nested deeper than any scenario needs before it can
// exhaust the stack ("[[[[..." or "- - - - ..."). Counts open flow brackets and, per line, indentation
// plus sequence dashes: an over-estimate of the depth, which is all a guard needs.
void check_nesting(std::string_view text, std::string_view source) {
  constexpr int kMaxDepth = 128;
  int flow = 0;
  int line = 1;
  int block = 0;
  bool line_start = true;
  for (char c : text) {
    if (c == '\n') {
      ++line;
      block = 0;
      line_start = true;
      continue;
    }
    if (line_start && (c == ' ' || c == '-')) ++block;
    else line_start = false;
    if (c == '[' || c == '{') ++flow;
    if ((c == ']' || c == '}') && flow > 0) --flow;
    if (flow > kMaxDepth || block > 4 * kMaxDepth) {
      throw InputError(std::string(source) + ":" + std::to_string(line) + ": nested deeper than " +
                       std::to_string(kMaxDepth) + " levels; a scenario needs three");
    }
  }
}

// A fleet of `count: auto` entries (docs/fractional-gpus.md, "Choosing the cheapest GPU types"): all of
// its entries are auto (a fixed count beside them would be a second kind of fleet to plan), each model once,
// and with two or more types every entry has a price (the choice between types is by price).
void check_priced_types(const Reader& r, const YAML::Node& nodes, const std::vector<FleetEntry>& fleet,
                        int as_needed) {
  for (size_t i = 0; i < fleet.size(); ++i) {
    const YAML::Node n = nodes[i];
    const std::string& name = fleet[i].model.name;
    if (static_cast<size_t>(as_needed) != fleet.size()) {
      if (!(n["count"] && n["count"].Scalar() == "auto")) {
        r.fail(n["count"] ? n["count"] : n, "fleet entry " + name +
                                                 ": give every entry 'count: auto' or none (a fleet is either the "
                                                 "GPUs you have or the GPU types to choose from)");
      }
    }
    for (size_t j = 0; j < i; ++j) {
      if (fleet[j].model.name == name) r.fail(n, "fleet entry " + name + ": GPU type listed twice in a 'count: auto' fleet");
    }
    if (fleet.size() > 1 && !fleet[i].cost_per_hour) {
      r.fail(n, "fleet entry " + name + " has no 'cost_per_hour': with 'count: auto' on several GPU types every "
                "entry needs its price per GPU and hour (a number > 0) to choose between them");
    }
  }
}

}  // namespace

Scenario parse_scenario_yaml(std::string_view text, std::string_view source, const GpuCatalog& catalog) {
  const Reader r(source);
  check_nesting(text, source);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw InputError(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ":" +
                     std::to_string(e.mark.column + 1) + ": YAML syntax error: " + e.msg);
  }
  if (!root.IsMap()) r.fail(root, "expected a map with 'workloads' (and optionally 'fleet')");
  r.check_keys(root, kTopKeys, "the scenario");
  Scenario s;
  if (root["cuda"]) s.cuda = r.located(root["cuda"], [&] { return CudaVersion::parse(r.scalar(root["cuda"], "cuda")); });
  if (root["context_overhead"]) s.context_overhead_bytes = r.size(root["context_overhead"], "context_overhead", 16 * kGiB);
  if (const YAML::Node fleet = root["fleet"]) {
    if (!fleet.IsSequence() || fleet.size() == 0) r.fail(fleet, "'fleet' must be a non-empty list");
    long gpus = 0;
    int as_needed = 0;
    for (const auto& f : fleet) {
      bool entry_as_needed = false;
      s.fleet.push_back(parse_fleet_entry(r, f, catalog, entry_as_needed));
      as_needed += entry_as_needed ? 1 : 0;
      if (entry_as_needed) continue;
      gpus += s.fleet.back().count;
      if (gpus > kMaxFleetGpus) {
        r.fail(f, "the fleet has more than " + std::to_string(kMaxFleetGpus) +
                      " GPUs in all, the most gpupack plans at once; plan a large fleet in parts (per node pool)");
      }
    }
    if (as_needed > 0) check_priced_types(r, fleet, s.fleet, as_needed);
    // Two plan nodes on one real node would double-book it: a name from node_names once, across pools.
    // (Pools that both keep the default node_prefix still share node-<i>, as before node_names existed.)
    std::map<std::string, size_t> node_names;
    for (size_t e = 0; e < s.fleet.size() && as_needed == 0; ++e) {
      const long nodes = (s.fleet[e].count + s.fleet[e].gpus_per_node - 1) / std::max(1, s.fleet[e].gpus_per_node);
      for (long k = 0; k < nodes; ++k) {
        const std::string name = node_name(s.fleet[e], k * s.fleet[e].gpus_per_node);
        const auto [it, fresh] = node_names.emplace(name, e);
        if (!fresh && (!s.fleet[e].node_names.empty() || !s.fleet[it->second].node_names.empty())) {
          r.fail(fleet[e], "node '" + name + "' is named twice in the fleet (each plan node must be its own Kubernetes node)");
        }
      }
    }
    s.elastic = as_needed > 0;
  }
  const YAML::Node workloads = root["workloads"];
  if (!workloads) r.fail(root, "the scenario needs 'workloads'");
  if (!workloads.IsSequence() || workloads.size() == 0) r.fail(workloads, "'workloads' must be a non-empty list");
  std::set<std::string> names;
  long replicas = 0;
  for (const auto& n : workloads) {
    Workload w = parse_workload(r, n);
    if (!names.insert(w.name).second) r.fail(n["name"], "duplicate workload name '" + w.name + "'");
    replicas += w.replicas;
    if (replicas > kMaxTotalReplicas) {
      r.fail(n, "the workloads have more than " + std::to_string(kMaxTotalReplicas) +
                    " replicas in all, the most gpupack plans at once; plan them in parts (per team or cluster)");
    }
    s.workloads.push_back(std::move(w));
  }
  return s;
}

}  // namespace gpupack
