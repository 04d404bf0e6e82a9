#include "cli/json_views.hpp"

namespace gpupack {

namespace {
template <typename T>
Json optional_json(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}
}  // namespace

Json to_json(const MigProfile& p) {
  Json placements = Json::array();
  for (int s : p.placement_starts) placements.push_back({{"start", s}, {"size", p.memory_slices}});
  const std::string_view variant = to_string(p.variant);
  return {{"name", p.name},
          {"gi_profile_id", optional_json(p.gi_profile_id)},
          {"compute_slices", p.compute_slices},
          {"memory_slices", p.memory_slices},
          {"memory_gib", p.memory_gib},
          {"sms", p.sms},
          {"copy_engines", optional_json(p.copy_engines)},
          {"decoders", optional_json(p.decoders)},
          {"max_count", p.max_count},
          {"placements", placements},
          {"variant", variant.empty() ? Json(nullptr) : Json(variant)},
          {"media_extensions", has_media_extensions(p.variant)},
          {"unconfirmed", p.unconfirmed}};
}

Json to_json(const GpuModel& m) {
  Json mig = nullptr;
  if (m.mig) {
    Json profiles = Json::array();
    for (const auto& p : m.mig->profiles) profiles.push_back(to_json(p));
    mig = {{"memory_slices", m.mig->memory_slices},
           {"compute_slices", m.mig->compute_slices},
           {"max_instances", m.mig->max_instances},
           {"min_driver", m.mig->min_driver},
           {"profiles", profiles}};
  }
  // The MPS client limit as a step function of the CUDA version.
  Json limits = Json::array();
  limits.push_back({{"min_cuda", "1.0"}, {"clients", mps_client_limit(m, {1, 0})}});
  if (mps_client_limit(m, {13, 1}) != mps_client_limit(m, {1, 0})) {
    limits.push_back({{"min_cuda", "13.1"}, {"clients", mps_client_limit(m, {13, 1})}});
  }
  Json static_partitions = nullptr;
  if (mps_static_sm_partitions(m, {13, 1})) static_partitions = "13.1";
  Json fraction = nullptr;  // an AWS fractional GPU: which share of which physical GPU
  if (m.fraction) {
    fraction = {{"of_model", m.fraction->of_model},
                {"denominator", m.fraction->denominator},
                {"compute_fraction", m.compute_fraction()},
                {"instance_types", m.fraction->instance_types},
                {"mps_inside", m.fraction->mps_inside}};
  }
  return {{"name", m.name},
          {"aliases", m.aliases},
          {"nvml_names", m.nvml_names},
          {"architecture", to_string(m.arch)},
          {"compute_capability", m.compute_capability.to_string()},
          {"sm_count", m.sm_count},
          {"memory_gib", m.memory_gib},
          {"memory_bandwidth_gbs", m.memory_bandwidth_gbs > 0 ? Json(m.memory_bandwidth_gbs) : Json(nullptr)},
          {"mig_supported", m.supports_mig()},
          {"fraction", fraction},
          {"mps",
           {{"client_limits", limits},
            {"isolates_memory", mps_isolates_memory(m)},
            {"static_sm_partitions_min_cuda", static_partitions}}},
          {"mig", mig},
          {"unconfirmed", m.unconfirmed}};
}

Json instances_json(const MigGeometry& g, const std::vector<MigPlacedInstance>& instances) {
  Json out = Json::array();
  for (const auto& inst : instances) {
    const MigProfile& p = g.profiles[inst.profile];
    out.push_back({{"profile", p.name}, {"start", inst.start}, {"size", p.memory_slices}});
  }
  return out;
}

Json profile_counts_json(const MigGeometry& g, const MigCounts& counts) {
  Json out = Json::object();
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0) out[g.profiles[i].name] = counts[i];
  }
  return out;
}

}  // namespace gpupack
