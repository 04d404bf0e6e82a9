// The --format yaml view: block-style YAML of a JSON document (the plan JSON, parsed back in order).
#include <yaml-cpp/yaml.h>

#include "cli/plan_views.hpp"

namespace gpupack {

namespace {
void emit(YAML::Emitter& e, const Json& v) {
  if (v.is_object()) {
    e << YAML::BeginMap;
    for (const auto& [k, item] : v.items()) {
      e << YAML::Key << k << YAML::Value;
      emit(e, item);
    }
    e << YAML::EndMap;
  } else if (v.is_array()) {
    e << YAML::BeginSeq;
    for (const auto& item : v) emit(e, item);
    e << YAML::EndSeq;
  } else if (v.is_null()) {
    e << YAML::Null;
  } else if (v.is_string()) {
    e << YAML::DoubleQuoted << v.get<std::string>();
  } else {
    e << v.dump();  // numbers and booleans as JSON writes them
  }
}
}  // namespace

std::string json_to_yaml(const Json& value) {
  YAML::Emitter e;
  emit(e, value);
  return std::string(e.c_str()) + "\n";
}

}  // namespace gpupack
