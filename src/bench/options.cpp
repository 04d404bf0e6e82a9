#include "bench/options.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"

namespace gpupack::bench {

namespace {

constexpr Part kAllParts[] = {Part::streams, Part::time_slicing, Part::mps,   Part::isolation,
                              Part::limits,  Part::mig,          Part::client};

std::string accepted_parts() {
  std::string names;
  for (const Part p : kAllParts) names += (names.empty() ? "" : ", ") + to_string(p);
  return names;
}

std::optional<Part> part_named(const std::string& word) {
  const std::optional<Sharing> sharing = parse_measured_sharing(word);
  for (const Part p : kAllParts) {
    if (word == to_string(p) || (sharing && measured_sharing(p) == sharing)) return p;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Sharing> measured_sharing(Part part) {
  switch (part) {
    case Part::streams: return Sharing::streams;
    case Part::time_slicing: return Sharing::time_slicing;
    case Part::mps: return Sharing::mps;
    case Part::isolation:
    case Part::limits:
    case Part::mig:
    case Part::client: return std::nullopt;
  }
  return std::nullopt;
}

std::string measured_mode(Sharing sharing) { return std::string(measurement_key(sharing)); }

std::string to_string(Part part) {
  if (const std::optional<Sharing> s = measured_sharing(part)) return measured_mode(*s);
  switch (part) {
    case Part::isolation: return "isolation";
    case Part::limits: return "limits";
    case Part::mig: return "mig";
    case Part::client: return "client";
    default: return "?";
  }
}

std::set<Part> parse_parts(const std::string& list) {
  std::set<Part> parts;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    const std::optional<Part> part = part_named(word);
    if (!part) throw InputError("--only: unknown part '" + word + "'; accepted: " + accepted_parts());
    parts.insert(*part);
    word.clear();
  };
  for (char c : list) {
    if (c == ',') {
      flush();
    } else if (c != ' ') {
      word += c;
    }
  }
  flush();
  if (parts.empty()) throw InputError("--only: no part named; accepted: " + accepted_parts());
  return parts;
}

std::vector<int> parse_ks(const std::string& list, const std::string& option) {
  std::vector<int> ks;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string word = list.substr(start, comma - start);
    int k = 0;
    size_t used = 0;
    try {
      k = std::stoi(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (word.empty() || used != word.size() || k < 1 || k > 48) {
      throw InputError(option + ": '" + word + "' is not a copy count; accepted: numbers 1 to 48, comma-separated (e.g. 1,2,4,8)");
    }
    if (std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
    start = comma + 1;
  }
  std::sort(ks.begin(), ks.end());
  return ks;
}

BenchPlan make_plan(const BenchOptions& options) {
  BenchPlan plan;
  if (options.quick) {
    // Same experiments, less work each: the process starts (about 0.3 s each) then dominate.
    plan.client_work_ms = 80;
    plan.latency_samples = 400;
    plan.neighbour_alone_s = 0.4;
    plan.limit_work_ms = 60;
    plan.stream_reps = 3;
  }
  return plan;
}

}  // namespace gpupack::bench
