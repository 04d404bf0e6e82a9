#include "io/yaml_fields.hpp"

#include <charconv>
#include <cmath>

#include "core/errors.hpp"
#include "core/units.hpp"

namespace gpupack {

std::optional<double> finite_yaml_number(std::string_view scalar) {
  double v = 0;
  const auto [end, ec] = std::from_chars(scalar.data(), scalar.data() + scalar.size(), v);
  if (ec != std::errc() || end != scalar.data() + scalar.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

void YamlFields::fail(const std::string& field_name, const std::string& problem) const {
  throw InputError(source_ + ": " + field_name + ": " + problem);
}

void YamlFields::only_keys(const YAML::Node& node, const std::string& where, const std::set<std::string>& allowed) const {
  if (!node.IsMap()) fail(where.empty() ? "(top level)" : where, "must be a mapping");
  std::set<std::string> seen;
  for (const auto& kv : node) {
    // A key such as `? [a]` or `{a: 1}` is a valid YAML key but no field name (and as<std::string>
    // would throw a conversion error that is no InputError).
    if (!kv.first.IsScalar()) {
      fail(where.empty() ? "(top level)" : where, "'" + YAML::Dump(kv.first) + "' is not a field name (keys must be plain words)");
    }
    const std::string key = kv.first.Scalar();
    // yaml-cpp keeps both of `clients: 2, clients: 60` and answers with the first: say so instead.
    if (!seen.insert(key).second) fail(field(where, key), "is given twice");
    if (!allowed.count(key)) {
      std::string names;
      for (const auto& a : allowed) names += (names.empty() ? "" : ", ") + a;
      fail(field(where, key), "unknown field (accepted: " + names + ")");
    }
  }
}

int YamlFields::in_range(const YAML::Node& node, const char* key, const std::string& where, int lo, int hi,
                         int fallback) const {
  const auto v = get<int>(node, key, where);
  if (!v) return fallback;
  if (*v < lo || *v > hi) {
    fail(field(where, key), std::to_string(*v) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  return *v;
}

std::optional<std::uint64_t> YamlFields::size(const YAML::Node& node, const char* key, const std::string& where) const {
  const auto text = get<std::string>(node, key, where);
  if (!text) return std::nullopt;
  try {
    return parse_size(*text);
  } catch (const InputError& e) {
    fail(field(where, key), e.what());
  }
}

}  // namespace gpupack
