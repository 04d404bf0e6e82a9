#include "io/scenario_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace gpupack {

namespace {

const std::vector<std::string> kTopKeys{"cuda", "context_overhead", "fleet", "workloads"};
const std::vector<std::string> kFleetKeys{"model", "count", "node_prefix", "gpus_per_node", "cost_per_hour",
                                          "cpu_cores"};
const std::vector<std::string> kWorkloadKeys{"name",   "replicas",  "memory",       "compute", "latency_slo_ms",
                                             "p99_alone_ms", "tenant", "isolation", "pattern", "group", "profile"};

class Reader {
 public:
  explicit Reader(std::string_view source) : source_(quote_input(source)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const YAML::Mark m = node.Mark();
    if (m.line < 0) throw InputError(source_ + ": " + message);
    throw InputError(source_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " + message);
  }

  // Rejects keys outside `known` (suggesting the nearest) and keys given twice.
  void check_keys(const YAML::Node& map, const std::vector<std::string>& known, const std::string& what) const {
    std::set<std::string> seen;
    for (const auto& kv : map) {
      if (!kv.first.IsScalar()) fail(kv.first, what + " keys must be plain words");
      const std::string key = kv.first.Scalar();
      if (!seen.insert(key).second) fail(kv.first, "key '" + quote_input(key) + "' given twice in " + what);
      bool ok = false;
      std::string nearest;
      size_t best = 4;  // suggest only names within 3 edits
      for (const auto& k : known) {
        ok = ok || k == key;
        const size_t d = edit_distance(to_lower(key.substr(0, 64)), k);  // keys are short; bounds the cost
        if (d < best) {
          best = d;
          nearest = k;
        }
      }
      if (!ok) {
        fail(kv.first, "unknown key '" + quote_input(key) + "' in " + what +
                           (nearest.empty() ? "" : "; did you mean '" + nearest + "'?") + " accepted: " +
                           join(known, ", "));
      }
    }
  }

  std::string scalar(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, "'" + key + "' must be a single value, not a list or map");
    return n.Scalar();
  }

  long integer(const YAML::Node& n, const std::string& key, long lo, long hi) const {
    const std::string s = scalar(n, key);
    long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) fail(n, "'" + key + "' must be a whole number, got '" + quote_input(s) + "'");
    if (v < lo || v > hi) {
      fail(n, "'" + key + "' must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + quote_input(s));
    }
    return v;
  }

  double number(const YAML::Node& n, const std::string& key, double lo_exclusive, double hi) const {
    const std::string s = scalar(n, key);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) {
      fail(n, "'" + key + "' must be a number, got '" + quote_input(s) + "'");
    }
    if (!(v > lo_exclusive) || v > hi) {
      fail(n, "'" + key + "' must be above " + format_bound(lo_exclusive) + " and at most " + format_bound(hi) +
                  ", got " + quote_input(s));
    }
    return v;
  }

  std::uint64_t size(const YAML::Node& n, const std::string& key, std::uint64_t max) const {
    const std::string s = scalar(n, key);
    std::uint64_t bytes = 0;
    try {
      bytes = parse_size(s);
    } catch (const InputError& e) {
      fail(n, "'" + key + "': " + e.what());
    }
    if (bytes > max) fail(n, "'" + key + "' of " + quote_input(s) + " is absurd: at most " + format_size(max));
    return bytes;
  }

  // Names end up in Kubernetes objects and file names: DNS-1123 labels.
  std::string name(const YAML::Node& n, const std::string& key) const {
    const std::string s = scalar(n, key);
    bool ok = !s.empty() && s.size() <= 63 && std::isalnum(static_cast<unsigned char>(s.front())) &&
              std::isalnum(static_cast<unsigned char>(s.back()));
    for (char c : s) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
    if (!ok) {
      fail(n, "'" + key + "' must be 1-63 lower-case letters, digits or '-', starting and ending with a letter or "
                  "digit, got '" + quote_input(s) + "'");
    }
    return s;
  }

  template <typename Fn>
  auto located(const YAML::Node& n, Fn&& fn) const {
    try {
      return fn();
    } catch (const InputError& e) {
      fail(n, e.what());
    }
  }

 private:
  static std::string format_bound(double v) {
    std::string s = std::to_string(v);
    while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
      const bool dot = s.back() == '.';
      s.pop_back();
      if (dot) break;
    }
    return s;
  }

  std::string source_;
};

FleetEntry parse_fleet_entry(const Reader& r, const YAML::Node& n, const GpuCatalog& catalog) {
  if (!n.IsMap()) r.fail(n, "each fleet entry must be a map with 'model' and 'count'");
  r.check_keys(n, kFleetKeys, "a fleet entry");
  if (!n["model"]) r.fail(n, "a fleet entry needs 'model'");
  FleetEntry f;
  const YAML::Node model = n["model"];
  f.model = r.located(model, [&] { return catalog.get(r.scalar(model, "model")); });
  if (n["count"]) f.count = static_cast<int>(r.integer(n["count"], "count", 1, kMaxFleetGpus));
  if (n["node_prefix"]) f.node_prefix = r.name(n["node_prefix"], "node_prefix");
  if (n["gpus_per_node"]) f.gpus_per_node = static_cast<int>(r.integer(n["gpus_per_node"], "gpus_per_node", 1, 64));
  if (n["cost_per_hour"]) f.cost_per_hour = r.number(n["cost_per_hour"], "cost_per_hour", 0, 1e6);
  if (n["cpu_cores"]) f.cpu_cores = r.number(n["cpu_cores"], "cpu_cores", 0, 4096);
  return f;
}

Workload parse_workload(const Reader& r, const YAML::Node& n) {
  if (!n.IsMap()) r.fail(n, "each workload must be a map with at least 'name', 'memory' and 'compute'");
  r.check_keys(n, kWorkloadKeys, "a workload");
  // With a profile, memory and compute may be left out: the profile supplies them.
  for (const char* required : {"name", "memory", "compute"}) {
    if (!n[required] && (!n["profile"] || std::string_view(required) == "name")) {
      r.fail(n, std::string("a workload needs '") + required + "' (or a 'profile' for memory and compute)");
    }
  }
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
    for (const auto& f : fleet) {
      s.fleet.push_back(parse_fleet_entry(r, f, catalog));
      gpus += s.fleet.back().count;
      if (gpus > kMaxFleetGpus) {
        r.fail(f, "the fleet has more than " + std::to_string(kMaxFleetGpus) +
                      " GPUs in all, the most gpupack plans at once; plan a large fleet in parts (per node pool)");
      }
    }
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
