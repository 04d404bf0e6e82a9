// Target `dra`: claims, opaque sharing configs and Deployments for NVIDIA's DRA driver, checked against
// the driver's published API (kubernetes-sigs/dra-driver-nvidia-gpu v0.4.0, unchanged at HEAD 22407113):
// api/nvidia.com/resource/v1beta1/{api,gpuconfig,migconfig,sharing,validate}.go and the DeviceClasses
// of deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-{gpu,mig}.yaml.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "render/render_test_support.hpp"
#include "render/targets.hpp"

namespace gpupack {
namespace {

using testing::find_file;
using testing::mixed_plan;

// The driver's GpuConfig / MigDeviceConfig validation rules, transcribed as facts (source above).
// - apiVersion resource.nvidia.com/v1beta1; kind GpuConfig (whole GPU) or MigDeviceConfig (MIG device).
// - The decoder is strict: unknown fields are rejected. GpuConfig: {apiVersion, kind, sharing};
//   GpuSharing: {strategy, timeSlicingConfig, mpsConfig}; MigDeviceSharing: {strategy, mpsConfig}.
// - strategy is "TimeSlicing" or "MPS"; TimeSlicing must not carry mpsConfig, MPS not timeSlicingConfig.
// - timeSlicingConfig.interval is one of Default, Short, Medium, Long.
// - mpsConfig: {defaultActiveThreadPercentage, defaultPinnedDeviceMemoryLimit,
//   defaultPerDevicePinnedMemoryLimit}; the percentage is 0..100; a memory limit must be at least 1 MiB
//   (Value()/1024/1024 > 0).
void expect_valid_driver_config(const YAML::Node& p, bool mig) {
  EXPECT_EQ(p["apiVersion"].as<std::string>(), "resource.nvidia.com/v1beta1");
  EXPECT_EQ(p["kind"].as<std::string>(), mig ? "MigDeviceConfig" : "GpuConfig");
  for (const auto& kv : p) {
    const auto key = kv.first.as<std::string>();
    EXPECT_TRUE(key == "apiVersion" || key == "kind" || key == "sharing") << key;
  }
  const YAML::Node s = p["sharing"];
  ASSERT_TRUE(s.IsMap());
  const std::set<std::string> sharing_keys =
      mig ? std::set<std::string>{"strategy", "mpsConfig"} : std::set<std::string>{"strategy", "timeSlicingConfig", "mpsConfig"};
  for (const auto& kv : s) EXPECT_TRUE(sharing_keys.count(kv.first.as<std::string>())) << kv.first.as<std::string>();
  const auto strategy = s["strategy"].as<std::string>();
  ASSERT_TRUE(strategy == "TimeSlicing" || strategy == "MPS") << strategy;
  if (strategy == "TimeSlicing") {
    EXPECT_FALSE(s["mpsConfig"]);
    if (s["timeSlicingConfig"]) {
      const auto interval = s["timeSlicingConfig"]["interval"].as<std::string>();
      EXPECT_TRUE(interval == "Default" || interval == "Short" || interval == "Medium" || interval == "Long");
    }
  } else {
    EXPECT_FALSE(s["timeSlicingConfig"]);
    const YAML::Node m = s["mpsConfig"];
    for (const auto& kv : m) {
      const auto key = kv.first.as<std::string>();
      EXPECT_TRUE(key == "defaultActiveThreadPercentage" || key == "defaultPinnedDeviceMemoryLimit" ||
                  key == "defaultPerDevicePinnedMemoryLimit")
          << key;
    }
    if (m["defaultActiveThreadPercentage"]) {
      const int pct = m["defaultActiveThreadPercentage"].as<int>();
      EXPECT_GE(pct, 0);
      EXPECT_LE(pct, 100);
    }
    if (m["defaultPinnedDeviceMemoryLimit"]) {
      const auto q = m["defaultPinnedDeviceMemoryLimit"].as<std::string>();
      ASSERT_GE(q.size(), 3u);
      EXPECT_EQ(q.substr(q.size() - 2), "Mi");
      EXPECT_GE(std::stoull(q.substr(0, q.size() - 2)), 1u);
    }
  }
}

std::map<std::string, YAML::Node> by_name(const TargetOutput& o, const std::string& path) {
  std::map<std::string, YAML::Node> out;
  const RenderedFile* f = find_file(o.files, path);
  if (!f) return out;
  for (const auto& d : YAML::LoadAll(f->content)) out[d["metadata"]["name"].as<std::string>()] = d;
  return out;
}

TEST(DraTarget, OneClaimPerSliceWithSelectorsAndTheDriversSharingConfig) {
  const TargetOutput o = render_dra_target(mixed_plan(), builtin_catalog());
  const auto claims = by_name(o, "dra/resourceclaims.yaml");
  // gpu0's unequal MPS clients cannot share one claim: 4 MIG instances of gpu1, gpu2 and gpu3.
  ASSERT_EQ(claims.size(), 6u);
  EXPECT_EQ(claims.count("node-0-gpu0"), 0u);
  for (const auto& [name, c] : claims) {
    EXPECT_EQ(c["apiVersion"].as<std::string>(), "resource.k8s.io/v1");
    EXPECT_EQ(c["kind"].as<std::string>(), "ResourceClaim");
    const YAML::Node req = c["spec"]["devices"]["requests"][0];
    EXPECT_EQ(req["name"].as<std::string>(), "gpu");
    const bool mig = req["exactly"]["deviceClassName"].as<std::string>() == "mig.nvidia.com";
    EXPECT_TRUE(mig || req["exactly"]["deviceClassName"].as<std::string>() == "gpu.nvidia.com");
    const YAML::Node config = c["spec"]["devices"]["config"];
    if (!config) continue;
    EXPECT_EQ(config[0]["requests"][0].as<std::string>(), "gpu");
    EXPECT_EQ(config[0]["opaque"]["driver"].as<std::string>(), "gpu.nvidia.com");
    expect_valid_driver_config(config[0]["opaque"]["parameters"], mig);
  }
  const YAML::Node mig0 = claims.at("node-0-gpu1-mig0")["spec"]["devices"];
  EXPECT_EQ(mig0["requests"][0]["exactly"]["selectors"][0]["cel"]["expression"].as<std::string>(),
            "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA A100-SXM4-80GB'");
  EXPECT_EQ(mig0["requests"][0]["exactly"]["selectors"][1]["cel"]["expression"].as<std::string>(),
            "device.attributes['gpu.nvidia.com'].profile == '3g.40gb'");
  EXPECT_EQ(mig0["requests"][0]["exactly"]["selectors"][2]["cel"]["expression"].as<std::string>(),
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('8192Mi')) >= 0");  // 2 x 4 GiB planned
  const YAML::Node mps = mig0["config"][0]["opaque"]["parameters"]["sharing"];
  EXPECT_EQ(mps["strategy"].as<std::string>(), "MPS");
  EXPECT_EQ(mps["mpsConfig"]["defaultActiveThreadPercentage"].as<int>(), 50);
  EXPECT_EQ(mps["mpsConfig"]["defaultPinnedDeviceMemoryLimit"].as<std::string>(), "4096Mi");
  const YAML::Node ts = claims.at("node-1-gpu2")["spec"]["devices"]["config"][0]["opaque"]["parameters"];
  EXPECT_EQ(ts["kind"].as<std::string>(), "GpuConfig");
  EXPECT_EQ(ts["sharing"]["timeSlicingConfig"]["interval"].as<std::string>(), "Default");
  EXPECT_FALSE(claims.at("node-0-gpu1-mig1")["spec"]["devices"]["config"]) << "exclusive: no sharing config";
  EXPECT_NE(o.readme[0].find("node node-0, GPU gpu0: not rendered: its MPS clients have different limits"),
            std::string::npos)
      << o.readme[0];
  EXPECT_NE(o.readme[0].find("kubernetes-sigs/dra-driver-nvidia-gpu v0.4.0"), std::string::npos);
  EXPECT_NE(o.readme[0].find("MPSSupport and TimeSlicingSettings"), std::string::npos) << o.readme[0];
}

TEST(DraTarget, ReplicasOnOneSliceShareItsClaim) {
  const TargetOutput o = render_dra_target(mixed_plan(), builtin_catalog());
  const auto deployments = by_name(o, "dra/deployments.yaml");
  std::map<std::string, int> replicas_per_claim;
  for (const auto& [name, d] : deployments) {
    const YAML::Node pod = d["spec"]["template"]["spec"];
    ASSERT_EQ(pod["resourceClaims"].size(), 1u) << name;
    EXPECT_EQ(pod["resourceClaims"][0]["name"].as<std::string>(), "gpu");
    EXPECT_EQ(pod["containers"][0]["resources"]["claims"][0]["name"].as<std::string>(), "gpu");
    replicas_per_claim[pod["resourceClaims"][0]["resourceClaimName"].as<std::string>()] += d["spec"]["replicas"].as<int>();
  }
  EXPECT_EQ(replicas_per_claim.at("node-1-gpu2"), 3);         // dev x3, time-sliced
  EXPECT_EQ(replicas_per_claim.at("node-0-gpu1-mig0"), 2);    // embed x2 under MPS
  EXPECT_EQ(replicas_per_claim.at("node-0-gpu1-mig1"), 1);    // secure, exclusive
  EXPECT_EQ(deployments.at("dev-node-1-gpu2")["spec"]["template"]["spec"]["affinity"]["nodeAffinity"]
                       ["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]["matchFields"][0]["values"][0]
                           .as<std::string>(),
            "node-1");
  EXPECT_TRUE(deployments.at("legacy-node-2-gpu3")["spec"]["template"]["spec"]["hostIPC"].as<bool>()) << "MPS on a P100";
}

TEST(DraTarget, BadPlansAreInputErrors) {
  PlanDocument no_model = mixed_plan();
  no_model.gpus[2].model.clear();
  EXPECT_THROW(render_dra_target(no_model, builtin_catalog()), InputError);
  PlanDocument bad_profile = mixed_plan();
  bad_profile.gpus[1].slices[0].profile = "5g.50gb";
  try {
    render_dra_target(bad_profile, builtin_catalog());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MIG profile '5g.50gb' is not a profile of A100-SXM4-80GB; accepted:"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpupack

namespace gpupack {
namespace {

// Issue 31, item 5: a streams group is one process, so its claim asks for its memory once, not once per
// replica (6 replicas of 1.5 GiB on an L4 asked for 9 GiB x 6 before, and no L4 matched); a slice whose
// processes need more than the catalog says the device has is not rendered, with the reason.
PlanDocument one_slice_plan(Sharing sharing, int replicas, std::uint64_t memory_each) {
  PlanDocument p;
  DocGpu g;
  g.id = "gpu0";
  g.node = "node-0";
  g.model = "L4-24GB";
  g.mode = sharing == Sharing::streams ? GpuMode::exclusive : GpuMode::mps;
  DocSlice s;
  s.id = "s0";
  s.sharing = sharing;
  s.memory_bytes = 22ULL << 30;
  for (int r = 0; r < replicas; ++r) s.clients.push_back({"embed", r, "search", memory_each, std::nullopt, 1.0, std::nullopt, std::nullopt, "synthetic", false});
  g.slices.push_back(s);
  p.gpus.push_back(g);
  check_plan_document(p, builtin_catalog());
  return p;
}

TEST(DraTargetMemory, AStreamsGroupAsksForItsMemoryOnce) {
  const TargetOutput o = render_dra_target(one_slice_plan(Sharing::streams, 6, 1536ULL << 20), builtin_catalog());
  const std::string claims = find_file(o.files, "dra/resourceclaims.yaml")->content;
  EXPECT_NE(claims.find("quantity('1536Mi')"), std::string::npos) << claims;
  const YAML::Node d = YAML::LoadAll(find_file(o.files, "dra/deployments.yaml")->content)[0];
  EXPECT_EQ(d["spec"]["replicas"].as<int>(), 1);  // one process: one pod, serving 6 replicas
  EXPECT_EQ(d["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"].Tag(), "!");  // quoted: a string
  EXPECT_EQ(d["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"].as<std::string>(), "6");
}

TEST(DraTargetMemory, AClaimNoDeviceCouldMatchIsNotRendered) {
  // 4 MPS clients of 8 GiB on a 24 GB L4: 32 GiB, more than the device has.
  const TargetOutput o = render_dra_target(one_slice_plan(Sharing::mps, 4, 8ULL << 30), builtin_catalog());
  EXPECT_EQ(find_file(o.files, "dra/resourceclaims.yaml"), nullptr);
  ASSERT_FALSE(o.readme.empty());
  EXPECT_NE(o.readme.front().find("more than the"), std::string::npos) << o.readme.front();
}

}  // namespace
}  // namespace gpupack
