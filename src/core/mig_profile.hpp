#pragma once
// MIG GPU-instance profiles and the placement geometry of one GPU model (facts: docs/reference, mig.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpupack {

// Variants of a base profile. Only `me` and `me_all` carry media extensions, and a GPU holds at most
// one instance with media extensions.
enum class MigVariant { none, me, me_all, no_me, gfx };

std::string_view to_string(MigVariant variant);
inline bool has_media_extensions(MigVariant v) { return v == MigVariant::me || v == MigVariant::me_all; }

struct MigProfile {
  std::string name;            // as nvidia-smi prints it, e.g. "1g.10gb", "1g.10gb+me"
  std::optional<int> gi_profile_id;  // NVML GPU-instance profile id seen on real hardware
  int compute_slices = 0;      // the "Ng" in the name
  int memory_slices = 0;       // placement size on the memory-slice axis
  double memory_gib = 0;       // memory the instance reports
  int sms = 0;                 // SMs of the instance (per profile: on Hopper it is not slices x 16)
  std::optional<int> copy_engines;
  std::optional<int> decoders;  // NVDEC units
  int max_count = 0;           // instances of this profile alone that fit on one GPU
  std::vector<int> placement_starts;  // allowed starts; each placement is [start, start + memory_slices)
  MigVariant variant = MigVariant::none;
  // Fields whose values were not seen in real output (mig.md marks them UNCONFIRMED), e.g. "sms".
  std::vector<std::string> unconfirmed;

  bool is_variant() const { return variant != MigVariant::none; }
  bool is_unconfirmed(std::string_view field) const;
};

struct MigGeometry {
  int memory_slices = 0;   // length of the placement axis (8 on A100/H100-class, 4 on A30, 12 on RTX PRO 6000)
  int compute_slices = 0;  // 7 on A100/H100-class, 4 on A30 and RTX PRO 6000
  int max_instances = 0;
  std::string min_driver;  // e.g. "R525"
  std::vector<MigProfile> profiles;

  // Case-insensitive lookup by profile name; also accepts the Kubernetes resource form
  // "nvidia.com/mig-1g.10gb". Returns the profile's index or -1.
  int find_profile(std::string_view name) const;
  // Comma-separated profile names, for error messages.
  std::string profile_names(bool include_variants = true) const;
};

}  // namespace gpupack
