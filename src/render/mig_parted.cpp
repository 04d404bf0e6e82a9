#include "render/mig_parted.hpp"

#include <yaml-cpp/yaml.h>

#include <set>

namespace gpupack {

namespace {

constexpr size_t kMaxLabelValue = 63;

}  // namespace

std::string mig_parted_config_name(const MigGeometry& g, const MigCounts& counts) {
  std::string name;
  for (int i : profiles_largest_first(g, counts)) {
    if (!name.empty()) name += '-';
    if (counts[i] > 1) name += std::to_string(counts[i]) + "x";
    for (char c : g.profiles[i].name) name += c == '+' ? '.' : c;
  }
  return name;
}

std::string render_mig_parted_config(const MigGeometry& g, const std::vector<MigLayout>& layouts) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
  out << YAML::Key << "mig-configs" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "all-disabled" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "devices" << YAML::Value << "all" << YAML::Key << "mig-enabled" << YAML::Value << false;
  out << YAML::EndMap << YAML::EndSeq;
  std::set<std::string> used{"all-disabled"};
  for (size_t i = 0; i < layouts.size(); ++i) {
    std::string name = mig_parted_config_name(g, layouts[i].counts);
    if (name.size() > kMaxLabelValue || used.count(name)) name = "layout-" + std::to_string(i + 1);
    used.insert(name);
    out << YAML::Key << name << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "devices" << YAML::Value << "all";
    out << YAML::Key << "mig-enabled" << YAML::Value << true;
    out << YAML::Key << "mig-devices" << YAML::Value << YAML::BeginMap;
    for (int p : profiles_largest_first(g, layouts[i].counts)) {
      out << YAML::Key << YAML::DoubleQuoted << g.profiles[p].name << YAML::Value << layouts[i].counts[p];
    }
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  }
  out << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace gpupack
