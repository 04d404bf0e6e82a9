// The embedded GPU catalog. Every MIG figure comes from ../shared/reference/mig.md (real `nvidia-smi mig
// -lgip/-lgipp` output and NVIDIA's MIG user guide). Where the reference marks a value UNCONFIRMED, or gives
// none, the value here is the one of the family it resembles and the field is listed in `unconfirmed`, so
// `gpupack catalog show` prints it as such. Two rules fill values the reference does not give:
//  - memory of a profile never seen: the name's nominal size in GB converted to GiB, rounded down to
//    0.25 GiB (conservative: real instances report slightly more, e.g. 1g.23gb -> 21.25 vs 22.0 seen);
//  - SMs of a profile never seen: 1g = half the 2g SMs (true of every part seen: 14/28, 16/32, 18/36),
//    3g = 3 x the 1g SMs, 4g = 2 x the 2g SMs, 7g = the whole GPU.
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/gpu_catalog.hpp"

namespace gpupack {

namespace {

using Fields = std::vector<std::string>;

double nominal_gib(const std::string& profile_name) {
  const auto dot = profile_name.find('.');
  const double gb = std::atof(profile_name.c_str() + dot + 1);
  return std::floor(gb * 1e9 / (1024.0 * 1024.0 * 1024.0) * 4.0) / 4.0;
}

// One profile row as the reference gives it. memory_gib/sms of 0 mean "not given": estimated and marked.
struct Row {
  std::string name;
  double memory_gib = 0;
  int sms = 0;
  std::optional<int> copy_engines;
  std::optional<int> decoders;
  Fields unconfirmed = {};
};

MigProfile make_profile(const Row& row, std::optional<int> id, int compute, int memory_slices, int max_count,
                        std::vector<int> starts, MigVariant variant, const Fields& family_unconfirmed) {
  MigProfile p;
  p.name = row.name;
  p.gi_profile_id = id;
  p.compute_slices = compute;
  p.memory_slices = memory_slices;
  p.memory_gib = row.memory_gib;
  p.sms = row.sms;
  p.copy_engines = row.copy_engines;
  p.decoders = row.decoders;
  p.max_count = max_count;
  p.placement_starts = std::move(starts);
  p.variant = variant;
  p.unconfirmed = family_unconfirmed;
  for (const auto& f : row.unconfirmed) p.unconfirmed.push_back(f);
  if (p.memory_gib == 0) {
    p.memory_gib = nominal_gib(p.name);
    p.unconfirmed.push_back("memory_gib");
  }
  return p;
}

// Fills SMs that the reference does not give (see the rule at the top) and marks them.
void estimate_missing_sms(MigGeometry& g, int gpu_sms) {
  auto sms_of = [&](int compute, int memory_slices) {
    for (const auto& p : g.profiles) {
      if (p.compute_slices == compute && p.memory_slices == memory_slices && p.sms > 0) return p.sms;
    }
    return 0;
  };
  for (auto& p : g.profiles) {
    if (p.sms > 0) continue;
    if (p.compute_slices == g.compute_slices) {
      p.sms = gpu_sms;
    } else if (p.compute_slices == 1) {
      p.sms = sms_of(2, 2) / 2;
    } else if (p.compute_slices == 3) {
      p.sms = 3 * sms_of(1, 1);
    } else if (p.compute_slices == 4) {
      p.sms = 2 * sms_of(2, 2);
    } else {
      p.sms = sms_of(p.compute_slices, p.memory_slices);
    }
    p.unconfirmed.push_back("sms");
  }
}

// Family 1: 8 memory slices, 7 compute slices (A100, H100, H200, GH200, B200, GB200). Rows in the order
// 1g, 1g+me, 1g double memory, 2g, 3g, 4g, 7g. Ids and placements from real -lgipp output.
MigGeometry family8(std::initializer_list<Row> rows, int gpu_sms, const std::string& min_driver,
                    const Fields& family_unconfirmed = {}) {
  struct Shape {
    int id, compute, memory_slices, max_count;
    std::vector<int> starts;
    MigVariant variant;
  };
  const Shape shapes[] = {
      {19, 1, 1, 7, {0, 1, 2, 3, 4, 5, 6}, MigVariant::none}, {20, 1, 1, 1, {0, 1, 2, 3, 4, 5, 6}, MigVariant::me},
      {15, 1, 2, 4, {0, 2, 4, 6}, MigVariant::none},          {14, 2, 2, 3, {0, 2, 4}, MigVariant::none},
      {9, 3, 4, 2, {0, 4}, MigVariant::none},                 {5, 4, 4, 1, {0}, MigVariant::none},
      {0, 7, 8, 1, {0}, MigVariant::none},
  };
  MigGeometry g{8, 7, 7, min_driver, {}};
  size_t i = 0;
  for (const Row& row : rows) {
    const Shape& s = shapes[i++];
    g.profiles.push_back(
        make_profile(row, s.id, s.compute, s.memory_slices, s.max_count, s.starts, s.variant, family_unconfirmed));
  }
  estimate_missing_sms(g, gpu_sms);
  return g;
}

MigGeometry a100_40gb() {
  return family8({{"1g.5gb", 4.75, 14, 1, 0},
                  {"1g.5gb+me", 4.75, 14, 1, 1},
                  {"1g.10gb", 9.75, 14, 1, 1},
                  {"2g.10gb", 9.75, 28, 2, 1},
                  {"3g.20gb", 19.62, 42, 3, 2},
                  {"4g.20gb", 19.62, 56, 4, 2, {"decoders"}},
                  {"7g.40gb", 39.5, 98, 7, 5, {"decoders"}}},
                 108, "R450");
}

MigGeometry a100_80gb() {
  // Same geometry as the 40GB part with doubled memory; copy engines and decoders as on the 40GB part.
  return family8({{"1g.10gb", 9.75, 14, 1, 0},
                  {"1g.10gb+me", 9.75, 14, 1, 1},
                  {"1g.20gb", 19.5, 14, 1, 1},
                  {"2g.20gb", 19.5, 28, 2, 1},
                  {"3g.40gb", 39.25, 42, 3, 2},
                  {"4g.40gb", 39.25, 56, 4, 2, {"decoders"}},
                  {"7g.80gb", 79.0, 98, 7, 5, {"decoders"}}},
                 108, "R450");
}

// Hopper decoder counts follow NVIDIA's H100 table (one NVDEC per compute slice); not in the reference.
MigGeometry h100_80gb(int gpu_sms, const Fields& extra_unconfirmed = {}) {
  const Fields dec{"decoders"};
  return family8({{"1g.10gb", 9.75, 16, 1, 1, dec},
                  {"1g.10gb+me", 9.75, 16, 1, 1, dec},
                  {"1g.20gb", 19.5, 26, 1, 1, dec},
                  {"2g.20gb", 19.5, 32, 2, 2, dec},
                  {"3g.40gb", 39.5, 60, 3, 3, dec},
                  {"4g.40gb", 39.5, 64, 4, 4, dec},
                  {"7g.80gb", 79.25, gpu_sms, 8, 7, dec}},
                 gpu_sms, "R525", extra_unconfirmed);
}

MigGeometry h100_nvl_94gb() {
  const Fields u{"copy_engines", "decoders"};  // not in the reference: H100 80GB values
  return family8({{"1g.12gb", 10.75, 16, 1, 1, u},
                  {"1g.12gb+me", 10.75, 16, 1, 1, u},
                  {"1g.24gb", 21.62, 26, 1, 1, u},
                  {"2g.24gb", 21.62, 32, 2, 2, u},
                  {"3g.47gb", 46.38, 60, 3, 3, u},
                  {"4g.47gb", 46.38, 64, 4, 4, u},
                  {"7g.94gb", 93.12, 132, 8, 7, u}},
                 132, "R525");
}

MigGeometry gh200_96gb() {
  // mig.md: ids, SMs and placements UNCONFIRMED, expect H100 NVL values; memory not given.
  const Fields u{"sms", "copy_engines", "decoders"};
  return family8({{"1g.12gb", 0, 16, 1, 1, u},
                  {"1g.12gb+me", 0, 16, 1, 1, u},
                  {"1g.24gb", 0, 26, 1, 1, u},
                  {"2g.24gb", 0, 32, 2, 2, u},
                  {"3g.48gb", 0, 60, 3, 3, u},
                  {"4g.48gb", 0, 64, 4, 4, u},
                  {"7g.96gb", 0, 132, 8, 7, u}},
                 132, "R525", {"gi_profile_id", "placement_starts"});
}

MigGeometry h200_141gb() {
  const Fields u{"copy_engines", "decoders"};
  return family8({{"1g.18gb", 16.0, 16, 1, 1, u},
                  {"1g.18gb+me", 16.0, 16, 1, 1, u},
                  {"1g.35gb", 32.25, 26, 1, 1, u},
                  {"2g.35gb", 32.25, 32, 2, 2, u},
                  {"3g.71gb", 69.5, 60, 3, 3, u},
                  {"4g.71gb", 69.5, 64, 4, 4, u},
                  {"7g.141gb", 139.75, 132, 8, 7, {"decoders"}}},
                 132, "R550", {"placement_starts"});
}

MigGeometry gh200_144gb() {
  const Fields u{"copy_engines", "decoders"};
  return family8({{"1g.18gb", 17.5, 16, 1, 1, u},
                  {"1g.18gb+me", 17.5, 16, 1, 1, u},
                  {"1g.36gb", 35.25, 26, 1, 1, u},
                  {"2g.36gb", 35.25, 32, 2, 2, u},
                  {"3g.72gb", 0, 60, 3, 3, {"sms", "copy_engines", "decoders"}},
                  {"4g.72gb", 0, 64, 4, 4, {"sms", "copy_engines", "decoders"}},
                  {"7g.144gb", 0, 132, 8, 7, {"sms", "copy_engines", "decoders"}}},
                 132, "R550", {"placement_starts"});
}

MigGeometry b200_180gb() {
  return family8({{"1g.23gb", 22.0, 18, 2, std::nullopt},
                  {"1g.23gb+me", 22.0, 18, 2, std::nullopt, {"copy_engines"}},
                  {"1g.45gb", 44.25, 30, std::nullopt, std::nullopt},
                  {"2g.45gb", 44.25, 36, std::nullopt, std::nullopt},
                  {"3g.90gb", 0, 0, std::nullopt, std::nullopt},
                  {"4g.90gb", 0, 0, std::nullopt, std::nullopt},
                  {"7g.180gb", 0, 0, std::nullopt, std::nullopt}},
                 148, "R570", {"placement_starts"});
}

MigGeometry gb200_186gb() {
  return family8({{"1g.23gb", 0, 0, std::nullopt, std::nullopt},
                  {"1g.23gb+me", 0, 0, std::nullopt, std::nullopt},
                  {"1g.47gb", 0, 32, std::nullopt, std::nullopt},
                  {"2g.47gb", 0, 38, std::nullopt, std::nullopt},
                  {"3g.93gb", 0, 0, std::nullopt, std::nullopt},
                  {"4g.93gb", 0, 0, std::nullopt, std::nullopt},
                  {"7g.186gb", 0, 0, std::nullopt, std::nullopt}},
                 148, "R570", {"gi_profile_id", "placement_starts"});
}

// A30: 4 memory slices, 4 compute slices; both the 1g and the 2g profile have a +me variant.
MigGeometry a30_24gb() {
  MigGeometry g{4, 4, 4, "R460", {}};
  g.profiles.push_back(make_profile({"1g.6gb", 5.81, 14, 1, 0}, 14, 1, 1, 4, {0, 1, 2, 3}, MigVariant::none, {}));
  g.profiles.push_back(make_profile({"1g.6gb+me", 5.81, 14, 1, 1}, 21, 1, 1, 1, {0, 1, 2, 3}, MigVariant::me, {}));
  g.profiles.push_back(make_profile({"2g.12gb", 11.69, 28, 2, 2}, 5, 2, 2, 2, {0, 2}, MigVariant::none, {}));
  g.profiles.push_back(make_profile({"2g.12gb+me", 11.69, 28, 2, 2}, 6, 2, 2, 1, {0, 2}, MigVariant::me, {}));
  g.profiles.push_back(make_profile({"4g.24gb", 23.44, 56, 4, 4}, 0, 4, 4, 1, {0}, MigVariant::none, {}));
  return g;
}

// RTX PRO 6000 Blackwell: a 12-unit placement axis, 4 compute slices, at most 4 instances. Memory per
// profile is not in the reference; variant placements are assumed equal to their base profile's.
MigGeometry rtx_pro_6000() {
  MigGeometry g{12, 4, 4, "R575", {}};
  const Fields vu{"placement_starts", "sms"};
  const std::vector<int> q{0, 3, 6, 9}, h{0, 6};
  auto add = [&](Row row, int id, int compute, int size, int max_count, const std::vector<int>& starts,
                 MigVariant v, const Fields& u) {
    g.profiles.push_back(make_profile(row, id, compute, size, max_count, starts, v, u));
  };
  add({"1g.24gb", 0, 46, std::nullopt, std::nullopt}, 14, 1, 3, 4, q, MigVariant::none, {});
  add({"1g.24gb+me", 0, 46, std::nullopt, std::nullopt}, 21, 1, 3, 1, q, MigVariant::me, {"placement_starts"});
  add({"1g.24gb+gfx", 0, 46, std::nullopt, std::nullopt}, 47, 1, 3, 4, q, MigVariant::gfx, vu);
  add({"1g.24gb-me", 0, 46, std::nullopt, std::nullopt}, 67, 1, 3, 4, q, MigVariant::no_me, vu);
  add({"1g.24gb+me.all", 0, 46, std::nullopt, std::nullopt}, 65, 1, 3, 1, q, MigVariant::me_all, vu);
  add({"2g.48gb", 0, 94, std::nullopt, std::nullopt}, 5, 2, 6, 2, h, MigVariant::none, {});
  add({"2g.48gb+gfx", 0, 94, std::nullopt, std::nullopt}, 35, 2, 6, 2, h, MigVariant::gfx, vu);
  add({"4g.96gb", 0, 188, std::nullopt, std::nullopt}, 0, 4, 12, 1, {0}, MigVariant::none, {});
  return g;
}

GpuModel model(std::string name, Fields aliases, Fields nvml, Architecture arch, ComputeCapability cc, int sms,
               double memory_gib, std::optional<MigGeometry> mig, Fields unconfirmed = {}) {
  return GpuModel{std::move(name), std::move(aliases), std::move(nvml), arch, cc, sms, memory_gib,
                  std::move(mig), std::move(unconfirmed)};
}

// An AWS fractional L4 (docs/fractional-gpus.md): the memory of its NVIDIA vGPU profile (L4-3Q: 3 GB) and, as
// its SM count, its share of the L4's 58 SMs rounded down (1/8: 7.25 -> 7), so every compute scale of the
// planner treats it as the smaller GPU it is. Its name is the vGPU profile, as the guest's driver reports it.
// No MIG, and no MPS (AWS does not document MPS inside the vGPU guest).
GpuModel fractional_l4(int denominator, double memory_gib, Fields instance_types) {
  constexpr int kL4Sms = 58;
  const std::string profile = "L4-" + std::to_string(static_cast<int>(memory_gib)) + "Q";
  Fields aliases{"L4-1/" + std::to_string(denominator)};
  aliases.insert(aliases.end(), instance_types.begin(), instance_types.end());
  GpuModel m = model(profile, std::move(aliases), {"NVIDIA " + profile}, Architecture::ada, {8, 9},
                     kL4Sms / denominator, memory_gib, std::nullopt, {"nvml_names"});
  m.fraction = GpuFraction{denominator, "L4-24GB", std::move(instance_types), false};
  return m;
}

}  // namespace

GpuCatalog builtin_catalog() {
  using A = Architecture;
  std::vector<GpuModel> m;
  m.push_back(model("A100-SXM4-40GB", {"A100-40GB", "A100-PCIE-40GB"},
                    {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-PCIE-40GB"}, A::ampere, {8, 0}, 108, 40, a100_40gb()));
  m.push_back(model("A100-SXM4-80GB", {"A100-80GB"}, {"NVIDIA A100-SXM4-80GB"}, A::ampere, {8, 0}, 108,
                    80, a100_80gb()));
  m.push_back(model("A100-PCIE-80GB", {"A100-80GB-PCIE"}, {"NVIDIA A100 80GB PCIe"}, A::ampere, {8, 0}, 108, 80,
                    a100_80gb()));
  m.push_back(model("A30-24GB", {"A30"}, {"NVIDIA A30"}, A::ampere, {8, 0}, 56, 24, a30_24gb()));
  m.push_back(model("H100-SXM5-80GB", {"H100-80GB", "H100-SXM"}, {"NVIDIA H100 80GB HBM3"}, A::hopper,
                    {9, 0}, 132, 80, h100_80gb(132)));
  // H100 PCIe has 114 SMs; its per-profile SM counts were not seen: the SXM5 values (7g: the whole GPU).
  m.push_back(model("H100-PCIE-80GB", {"H100-PCIE"}, {"NVIDIA H100 PCIe"}, A::hopper, {9, 0}, 114, 80,
                    h100_80gb(114, {"sms"})));
  m.push_back(model("H100-NVL-94GB", {"H100-94GB", "H100-NVL"}, {"NVIDIA H100 NVL"}, A::hopper, {9, 0}, 132, 94,
                    h100_nvl_94gb()));
  m.push_back(model("H200-SXM-141GB", {"H200", "H200-141GB", "H200-SXM"}, {"NVIDIA H200"}, A::hopper, {9, 0}, 132,
                    141, h200_141gb()));
  m.push_back(model("H200-NVL-141GB", {"H200-NVL"}, {"NVIDIA H200 NVL"}, A::hopper, {9, 0}, 132, 141,
                    h200_141gb()));
  m.push_back(model("GH200-96GB", {"GH200", "GH200-480GB"}, {"NVIDIA GH200 480GB"}, A::hopper, {9, 0}, 132, 96,
                    gh200_96gb(), {"nvml_names"}));
  m.push_back(model("GH200-144GB", {"GH200-144G"}, {"NVIDIA GH200 144G HBM3e"}, A::hopper, {9, 0}, 132, 144,
                    gh200_144gb(), {"nvml_names"}));
  m.push_back(model("B200-180GB", {"B200"}, {"NVIDIA B200"}, A::blackwell, {10, 0}, 148, 180, b200_180gb()));
  m.push_back(model("GB200-186GB", {"GB200"}, {"NVIDIA GB200"}, A::blackwell, {10, 0}, 148, 186, gb200_186gb(),
                    {"sm_count"}));
  m.push_back(model("RTX-PRO-6000-BLACKWELL-96GB", {"RTXPRO6000"},
                    {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"},
                    A::blackwell, {12, 0}, 188, 96, rtx_pro_6000()));
  m.push_back(model("L40S-48GB", {"L40S"}, {"NVIDIA L40S"}, A::ada, {8, 9}, 142, 48, std::nullopt));
  m.push_back(model("L4-24GB", {"L4"}, {"NVIDIA L4"}, A::ada, {8, 9}, 58, 24, std::nullopt));
  m.push_back(fractional_l4(8, 3, {"g6f.large", "g6f.xlarge"}));
  m.push_back(fractional_l4(4, 6, {"g6f.2xlarge"}));
  m.push_back(fractional_l4(2, 12, {"g6f.4xlarge", "gr6f.4xlarge"}));
  m.push_back(model("A10G-24GB", {"A10G"}, {"NVIDIA A10G"}, A::ampere, {8, 6}, 80, 24, std::nullopt));
  m.push_back(model("T4-16GB", {"T4"}, {"Tesla T4"}, A::turing, {7, 5}, 40, 16, std::nullopt));
  m.push_back(model("V100-SXM2-16GB", {"V100", "V100-16GB", "V100-PCIE-16GB"},
                    {"Tesla V100-SXM2-16GB", "Tesla V100-PCIE-16GB"}, A::volta, {7, 0}, 80, 16, std::nullopt));
  m.push_back(model("V100-SXM2-32GB", {"V100-32GB", "V100-PCIE-32GB"},
                    {"Tesla V100-SXM2-32GB", "Tesla V100-PCIE-32GB"}, A::volta, {7, 0}, 80, 32, std::nullopt));
  m.push_back(model("P100-PCIE-16GB", {"P100", "P100-16GB", "P100-SXM2-16GB"},
                    {"Tesla P100-PCIE-16GB", "Tesla P100-SXM2-16GB"}, A::pascal, {6, 0}, 56, 16, std::nullopt));
  // Peak DRAM bandwidth, GB/s, from NVIDIA's datasheets; a fractional L4 gets its share of the L4's.
  const std::map<std::string, double> bandwidth_gbs{
      {"A100-SXM4-40GB", 1555}, {"A100-SXM4-80GB", 2039}, {"A100-PCIE-80GB", 1935}, {"A30-24GB", 933},
      {"H100-SXM5-80GB", 3350}, {"H100-PCIE-80GB", 2000}, {"H100-NVL-94GB", 3900}, {"H200-SXM-141GB", 4800},
      {"H200-NVL-141GB", 4800}, {"GH200-96GB", 4000}, {"GH200-144GB", 4900}, {"B200-180GB", 8000},
      {"GB200-186GB", 8000}, {"RTX-PRO-6000-BLACKWELL-96GB", 1597}, {"L40S-48GB", 864}, {"L4-24GB", 300},
      {"A10G-24GB", 600}, {"T4-16GB", 320}, {"V100-SXM2-16GB", 900}, {"V100-SXM2-32GB", 900},
      {"P100-PCIE-16GB", 732}};
  for (GpuModel& g : m) {
    const auto it = bandwidth_gbs.find(g.fraction ? g.fraction->of_model : g.name);
    if (it != bandwidth_gbs.end()) g.memory_bandwidth_gbs = it->second * g.compute_fraction();
  }
  return GpuCatalog(std::move(m));
}

}  // namespace gpupack
