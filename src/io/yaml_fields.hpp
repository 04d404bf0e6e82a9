#pragma once
// Field-by-field reading of a YAML config with one clear error per problem, "<source>: <field>: <problem>"
// (InputError): unknown keys, wrong types, values out of range, malformed sizes. Shared by the node
// config (agent) and its device_plugin section (k8s), so both report errors the same way.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace gpupack {

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
