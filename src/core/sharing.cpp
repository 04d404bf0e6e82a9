#include "core/sharing.hpp"

#include <array>

namespace gpupack {

namespace {

// The one table of sharing names: the text form, and the measurement records' key where it differs.
struct SharingName {
  Sharing sharing;
  std::string_view text;
  std::string_view measurement_key;
};
constexpr std::array<SharingName, 4> kSharingTable{{
    {Sharing::exclusive, "exclusive", "exclusive"},
    {Sharing::time_slicing, "time-slicing", "timeslicing"},
    {Sharing::mps, "mps", "mps"},
    {Sharing::streams, "streams", "streams"},
}};

const SharingName& entry_of(Sharing sharing) {
  for (const SharingName& e : kSharingTable) {
    if (e.sharing == sharing) return e;
  }
  return kSharingTable.front();
}

// "mig+mps": a MIG mode is the sharing inside, after this prefix; "mig" alone when unshared.
constexpr std::string_view kMigName = "mig";
constexpr std::string_view kMigSeparator = "+";

}  // namespace

std::string_view to_string(Sharing sharing) { return entry_of(sharing).text; }

std::optional<Sharing> parse_sharing(std::string_view text) {
  for (const SharingName& e : kSharingTable) {
    if (e.text == text) return e.sharing;
  }
  return std::nullopt;
}

std::string sharing_names(bool with_streams) {
  std::string names;
  for (const SharingName& e : kSharingTable) {
    if (with_streams || e.sharing != Sharing::streams) names += (names.empty() ? "" : ", ") + std::string(e.text);
  }
  return names;
}

std::string_view measurement_key(Sharing sharing) { return entry_of(sharing).measurement_key; }

std::optional<Sharing> parse_measured_sharing(std::string_view text) {
  for (const SharingName& e : kSharingTable) {
    if (e.measurement_key == text || e.text == text) return e.sharing;
  }
  return std::nullopt;
}

const std::vector<GpuMode>& all_gpu_modes() {
  static const std::vector<GpuMode> kModes{GpuMode::exclusive, GpuMode::time_slicing, GpuMode::mps,
                                           GpuMode::mig,       GpuMode::mig_mps,      GpuMode::mig_time_slicing};
  return kModes;
}

std::string to_string(GpuMode mode) {
  if (!mode.uses_mig) return std::string(to_string(mode.sharing));
  std::string text(kMigName);
  if (mode.sharing != Sharing::exclusive) text += std::string(kMigSeparator) + std::string(to_string(mode.sharing));
  return text;
}

std::optional<GpuMode> parse_gpu_mode(std::string_view text) {
  for (const GpuMode m : all_gpu_modes()) {
    if (to_string(m) == text) return m;
  }
  return std::nullopt;
}

std::string gpu_mode_names() {
  std::string names;
  for (const GpuMode m : all_gpu_modes()) names += (names.empty() ? "" : ", ") + to_string(m);
  return names;
}

}  // namespace gpupack
