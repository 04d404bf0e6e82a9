#include "core/mig_profile.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace gpupack {

std::string_view to_string(MigVariant variant) {
  switch (variant) {
    case MigVariant::none: return "";
    case MigVariant::me: return "+me";
    case MigVariant::me_all: return "+me.all";
    case MigVariant::no_me: return "-me";
    case MigVariant::gfx: return "+gfx";
  }
  return "";
}

bool MigProfile::is_unconfirmed(std::string_view field) const {
  return std::find(unconfirmed.begin(), unconfirmed.end(), field) != unconfirmed.end();
}

int MigGeometry::find_profile(std::string_view name) const {
  constexpr std::string_view kResourcePrefix = "nvidia.com/mig-";
  if (iequals(name.substr(0, kResourcePrefix.size()), kResourcePrefix)) name.remove_prefix(kResourcePrefix.size());
  for (size_t i = 0; i < profiles.size(); ++i) {
    if (iequals(profiles[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

std::string MigGeometry::profile_names(bool include_variants) const {
  std::string out;
  for (const auto& p : profiles) {
    if (p.is_variant() && !include_variants) continue;
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out;
}

}  // namespace gpupack
