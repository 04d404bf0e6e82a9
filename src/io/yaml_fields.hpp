#pragma once
// Field-by-field reading of a YAML config with one clear error per problem, "<source>: <field>: <problem>"
// (InputError): unknown keys, wrong types, values out of range, malformed sizes. Shared by the node
// config (agent) and its device_plugin section (k8s), so both report errors the same way.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

namespace gpupack {

// A YAML scalar read as a finite number: decimal or exponent notation (std::from_chars), nothing after it.
// NaN and the infinities (".nan", ".inf", "nan", "inf", "1e999") are none: a NaN passes every range check
// (`x < lo || x > hi` is false) and an infinity makes a loop or a sum meaningless. Every YAML reader's
// numbers go through it (YamlFields::get<double>, the scenario reader).
std::optional<double> finite_yaml_number(std::string_view scalar);

class YamlFields {
 public:
  explicit YamlFields(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const;
  // "where.key", or "key" at the top level (where is empty).
  static std::string field(const std::string& where, const std::string& key) {
    return where.empty() ? key : where + "." + key;
  }
  // Rejects keys the schema does not have (a misspelt key silently ignored is a setting not applied),
  // keys given twice and keys that are not scalars.
  void only_keys(const YAML::Node& node, const std::string& where, const std::set<std::string>& allowed) const;

  template <typename T>
  std::optional<T> get(const YAML::Node& node, const char* key, const std::string& where) const {
    const YAML::Node v = node[key];
    if (!v || v.IsNull()) return std::nullopt;
    if constexpr (std::is_floating_point_v<T>) {
      const auto number = v.IsScalar() ? finite_yaml_number(v.Scalar()) : std::nullopt;
      if (!number) fail(field(where, key), "must be a finite number, got '" + YAML::Dump(v) + "'");
      return static_cast<T>(*number);
    }
    try {
      return v.as<T>();
    } catch (const YAML::Exception&) {
      fail(field(where, key), "has the wrong type ('" + YAML::Dump(v) + "')");
    }
  }

  // The integer at `key` within lo..hi; `fallback` when absent.
  int in_range(const YAML::Node& node, const char* key, const std::string& where, int lo, int hi, int fallback) const;
  // A size such as "4GiB" at `key` (core/units.hpp); none when absent.
  std::optional<std::uint64_t> size(const YAML::Node& node, const char* key, const std::string& where) const;

 private:
  std::string source_;
};

}  // namespace gpupack
