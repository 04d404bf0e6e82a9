// The device plugins against the kubelet simulator, over real unix sockets in a temp directory.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <dirent.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "fakes/temp_dir.hpp"
#include "k8s/device_plugins.hpp"
#include "k8s/kubelet_sim.hpp"
#include "k8s/sample_node.hpp"

namespace gpupack::k8s {
namespace {

using gpupack::testing::kWait;
using gpupack::testing::KubeletSim;
using gpupack::testing::PluginClient;
namespace fs = std::filesystem;

class DevicePluginSim : public ::testing::Test {
 protected:
  gpupack::PosixFilesystem files_;
  DevicePluginSettings settings(bool cdi = false) {
    DevicePluginSettings s;
    s.plugin_dir = dir.path();
    s.cdi = cdi;
    s.cdi_dir = dir / "cdi";
    return s;
  }
  std::unique_ptr<DevicePlugins> start_plugins(bool cdi = false) {
    auto p = std::make_unique<DevicePlugins>(plan_resources(gpupack::testing::sample_targets()), settings(cdi), files_);
    p->start();
    return p;
  }
  std::string socket_of(const std::string& resource) const { return dir.path() + "/" + socket_name(resource); }
  std::vector<std::string> sockets() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir.path())) {
      if (e.is_socket()) out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  gpupack::testing::TempDir dir;
  KubeletSim kubelet{dir.path()};
};

constexpr std::size_t kResources = 6;

TEST_F(DevicePluginSim, RegistersEveryResourceAndListsItsDevices) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  std::set<std::string> names;
  for (const auto& r : kubelet.registrations()) {
    names.insert(r.resource_name());
    EXPECT_EQ(r.version(), "v1beta1");
    EXPECT_EQ(r.endpoint(), socket_name(r.resource_name()));
    EXPECT_TRUE(r.options().get_preferred_allocation_available());
  }
  EXPECT_EQ(names, (std::set<std::string>{"gpupack.io/mig-1g.10gb-mps-50", "gpupack.io/mps-25", "gpupack.io/mps-50",
                                          "nvidia.com/gpu", "nvidia.com/mig-2g.20gb", "nvidia.com/mig-3g.40gb"}));
  for (const auto& r : plugins->resources()) {
    PluginClient client(socket_of(r.name));
    v1beta1::DevicePluginOptions options;
    ASSERT_TRUE(client.options(&options).ok());
    EXPECT_TRUE(options.get_preferred_allocation_available());
    EXPECT_TRUE(options.pre_start_required());  // the two-GPU-resources check (container_check.hpp)
    client.watch();
    v1beta1::ListAndWatchResponse list;
    ASSERT_TRUE(client.wait_for_list([](const auto&) { return true; }, &list)) << r.name;
    ASSERT_EQ(list.devices_size(), static_cast<int>(r.devices.size()));
    for (int i = 0; i < list.devices_size(); ++i) {
      EXPECT_EQ(list.devices(i).id(), r.devices[static_cast<std::size_t>(i)].id);
      EXPECT_EQ(list.devices(i).health(), "Healthy");
    }
  }
}

TEST_F(DevicePluginSim, AllocatesEachKindOfResource) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  using gpupack::testing::kGpu0;
  using gpupack::testing::kGpu1;
  using gpupack::testing::kGpu2;
  using gpupack::testing::kMigA;
  using gpupack::testing::kMigB;
  using gpupack::testing::kMigC;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nvidia.com/gpu", kGpu0},          {"nvidia.com/gpu", kGpu1 + "::1"},       {"gpupack.io/mps-50", kGpu2 + "::0"},
      {"gpupack.io/mps-25", kGpu2 + "::2"}, {"nvidia.com/mig-3g.40gb", kMigA},      {"nvidia.com/mig-2g.20gb", kMigB + "::1"},
      {"gpupack.io/mig-1g.10gb-mps-50", kMigC + "::0"}};
  for (const auto& [resource, id] : cases) {
    PluginClient client(socket_of(resource));
    v1beta1::AllocateResponse resp;
    const auto status = client.allocate({{id}}, &resp);
    ASSERT_TRUE(status.ok()) << resource << " " << id << ": " << status.error_message();
    ASSERT_EQ(resp.container_responses_size(), 1);
    const auto& c = resp.container_responses(0);
    const std::string target = id.substr(0, id.find("::"));
    EXPECT_EQ(c.envs().at("NVIDIA_VISIBLE_DEVICES"), target) << resource;
    const bool mps = resource.rfind("gpupack.io/", 0) == 0;
    EXPECT_EQ(c.envs().count("CUDA_MPS_PIPE_DIRECTORY"), mps ? 1u : 0u) << resource;
    if (mps) {
      EXPECT_EQ(c.envs().at("CUDA_MPS_PIPE_DIRECTORY"), "/run/gpupack/mps/" + target + "/pipe");
      EXPECT_EQ(c.envs().at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), resource.substr(resource.rfind('-') + 1));
      EXPECT_TRUE(c.envs().count("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"));
      ASSERT_EQ(c.mounts_size(), 2);
      EXPECT_EQ(c.mounts(1).host_path(), "/dev/shm");
    }
  }
}

TEST_F(DevicePluginSim, CdiModeAnswersDeviceNamesFromTheWrittenSpec) {
  kubelet.start();
  auto plugins = start_plugins(true);
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  std::ifstream in(dir / "cdi/gpupack.io-gpu.json");
  const auto spec = nlohmann::json::parse(in);
  EXPECT_EQ(spec.at("cdiVersion"), "0.6.0");  // the lowest its annotations need (contract/cdi_spec.hpp)
  EXPECT_EQ(spec.at("kind"), "gpupack.io/gpu");
  std::set<std::string> names;
  for (const auto& d : spec.at("devices")) names.insert(d.at("name").get<std::string>());
  EXPECT_EQ(names.size(), 12u);  // every device of every resource
  for (const auto& e : fs::directory_iterator(dir / "cdi")) EXPECT_EQ(e.path().filename(), "gpupack.io-gpu.json");  // no temp file left
  PluginClient client(socket_of("gpupack.io/mps-25"));
  v1beta1::AllocateResponse resp;
  ASSERT_TRUE(client.allocate({{gpupack::testing::kGpu2 + "::1"}}, &resp).ok());
  ASSERT_EQ(resp.container_responses(0).cdi_devices_size(), 1);
  const std::string name = resp.container_responses(0).cdi_devices(0).name();
  EXPECT_EQ(name, "gpupack.io/gpu=" + gpupack::testing::kGpu2 + "-1");
  EXPECT_TRUE(names.count(name.substr(name.find('=') + 1)));
}

TEST_F(DevicePluginSim, HealthChangeSendsANewListAndRefusesTheSickDevice) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  PluginClient gpu(socket_of("nvidia.com/gpu")), mig(socket_of("nvidia.com/mig-2g.20gb"));
  gpu.watch();
  mig.watch();
  ASSERT_TRUE(gpu.wait_for_list([](const auto& l) { return gpupack::testing::healthy_count(l) == 4; }));
  ASSERT_TRUE(mig.wait_for_list([](const auto& l) { return gpupack::testing::healthy_count(l) == 2; }));
  auto devices = gpupack::testing::sample_devices();
  plugins->update_health(devices, {{gpupack::testing::kGpu1, 79}});  // fell off the bus
  v1beta1::ListAndWatchResponse list;
  ASSERT_TRUE(gpu.wait_for_list([](const auto& l) { return gpupack::testing::healthy_count(l) == 1; }, &list));
  EXPECT_EQ(list.devices(0).health(), "Healthy");    // GPU 0 untouched
  EXPECT_EQ(list.devices(1).health(), "Unhealthy");  // GPU 1's three replicas
  v1beta1::AllocateResponse resp;
  const auto status = gpu.allocate({{gpupack::testing::kGpu1 + "::0"}}, &resp);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find(gpupack::testing::kGpu1 + "::0"), std::string::npos) << status.error_message();
  EXPECT_TRUE(gpu.allocate({{gpupack::testing::kGpu0}}, &resp).ok());
  // The MIG GPU disappears: its instances' devices turn unhealthy, and healthy again when it is back.
  devices.pop_back();
  plugins->update_health(devices, {});
  ASSERT_TRUE(mig.wait_for_list([](const auto& l) { return gpupack::testing::healthy_count(l) == 0; }));
  plugins->update_health(gpupack::testing::sample_devices(), {});
  ASSERT_TRUE(mig.wait_for_list([](const auto& l) { return gpupack::testing::healthy_count(l) == 2; }));
}

TEST_F(DevicePluginSim, XidVerdictsSurviveRebuildingThePlugins) {
  kubelet.start();
  auto plugins = start_plugins();
  plugins->update_health(gpupack::testing::sample_devices(), {{gpupack::testing::kGpu1, 48}});
  // A reload rebuilds the plugins; the XID is not reported again, yet GPU 1 must stay unhealthy.
  auto next = std::make_unique<DevicePlugins>(plan_resources(gpupack::testing::sample_targets()), settings(), files_);
  next->carry_health_from(*plugins);
  plugins.reset();
  next->start();
  next->update_health(gpupack::testing::sample_devices(), {});
  PluginClient client(socket_of("nvidia.com/gpu"));
  client.watch();
  v1beta1::ListAndWatchResponse list;
  ASSERT_TRUE(client.wait_for_list([](const auto&) { return true; }, &list));
  EXPECT_EQ(gpupack::testing::healthy_count(list), 1);  // only GPU 0
}

TEST_F(DevicePluginSim, KubeletRestartLeadsToServingAndRegisteringAgain) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  for (int restart = 1; restart <= 2; ++restart) {
    kubelet.restart();  // deletes every socket, ours included, then serves kubelet.sock anew
    ASSERT_TRUE(kubelet.wait_for_registrations(kResources * static_cast<std::size_t>(restart + 1))) << "restart " << restart;
    for (const auto& r : plugins->resources()) {
      PluginClient client(socket_of(r.name));
      v1beta1::DevicePluginOptions options;
      EXPECT_TRUE(client.options(&options).ok()) << r.name;
    }
  }
  // kubelet records a registration before the plugin's Register call has returned, so the plugin's own
  // count may lag kubelet's for a moment: wait for it, then check it is neither short nor over.
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (plugins->registrations() < 3 * kResources && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // room for a duplicate to show up
  EXPECT_EQ(plugins->registrations(), 3 * kResources);
}

TEST_F(DevicePluginSim, OurSocketRemovedAloneIsServedAndRegisteredAgain) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  fs::remove(socket_of("gpupack.io/mps-50"));
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources + 1));
  EXPECT_EQ(kubelet.registrations().back().resource_name(), "gpupack.io/mps-50");
  PluginClient client(socket_of("gpupack.io/mps-50"));
  v1beta1::DevicePluginOptions options;
  EXPECT_TRUE(client.options(&options).ok());
}

TEST_F(DevicePluginSim, KubeletStartingAfterThePluginsIsRegisteredWith) {
  auto plugins = start_plugins();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(plugins->registrations(), 0u);
  kubelet.start();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
}

TEST_F(DevicePluginSim, PluginRestartWithPodsStillAllocated) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  const std::string id = gpupack::testing::kGpu2 + "::1";
  v1beta1::AllocateResponse first;
  {
    PluginClient client(socket_of("gpupack.io/mps-25"));
    ASSERT_TRUE(client.allocate({{id}}, &first).ok());
  }
  plugins.reset();  // the agent stops; the pod keeps running
  EXPECT_TRUE(sockets() == std::vector<std::string>{"kubelet.sock"});
  plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(2 * kResources));
  PluginClient client(socket_of("gpupack.io/mps-25"));
  client.watch();
  v1beta1::ListAndWatchResponse list;
  ASSERT_TRUE(client.wait_for_list([](const auto&) { return true; }, &list));
  EXPECT_EQ(gpupack::testing::healthy_count(list), 2);  // the allocated slice is still advertised
  // kubelet re-allocates from its checkpoint (a container restart): the same answer as before.
  v1beta1::AllocateResponse again;
  ASSERT_TRUE(client.allocate({{id}}, &again).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(again, first)) << again.DebugString();
}

TEST_F(DevicePluginSim, BadCallsAreErrorsNamingTheIds) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  PluginClient client(socket_of("nvidia.com/gpu"));
  v1beta1::AllocateResponse resp;
  auto s = client.allocate({{"GPU-unknown"}}, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("'GPU-unknown'"), std::string::npos) << s.error_message();
  s = client.allocate({{gpupack::testing::kGpu0}, {gpupack::testing::kGpu0}}, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("twice"), std::string::npos) << s.error_message();
  s = client.allocate({{gpupack::testing::kGpu0, gpupack::testing::kGpu1 + "::0", gpupack::testing::kGpu1 + "::1",
                        gpupack::testing::kGpu1 + "::2", "GPU-fifth"}},
                      &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("5 devices of nvidia.com/gpu requested, the node has 4"), std::string::npos) << s.error_message();
  s = client.allocate({}, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  s = client.allocate({{}}, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(client.pre_start({"GPU-unknown"}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(client.pre_start({gpupack::testing::kGpu0}).ok());
  std::vector<std::string> preferred;
  ASSERT_TRUE(client.preferred({gpupack::testing::kGpu1 + "::0", gpupack::testing::kGpu1 + "::1", gpupack::testing::kGpu0}, {}, 1,
                               &preferred)
                  .ok());
  EXPECT_EQ(preferred.size(), 1u);
  // Still serving after all that.
  EXPECT_TRUE(client.allocate({{gpupack::testing::kGpu0}}, &resp).ok());
}

TEST_F(DevicePluginSim, ConcurrentAllocateCallsAllSucceed) {
  kubelet.start();
  auto plugins = start_plugins();
  ASSERT_TRUE(kubelet.wait_for_registrations(kResources));
  std::atomic<int> ok{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      PluginClient client(socket_of("nvidia.com/gpu"));
      for (int i = 0; i < 25; ++i) {
        v1beta1::AllocateResponse resp;
        const std::string id = gpupack::testing::kGpu1 + "::" + std::to_string((t + i) % 3);
        const bool good = client.allocate({{id}}, &resp).ok() && resp.container_responses(0).envs().at("NVIDIA_VISIBLE_DEVICES") == gpupack::testing::kGpu1;
        // Every fourth call is a bad one, interleaved with the good ones.
        v1beta1::AllocateResponse bad;
        const bool refused = !client.allocate({{id, id}}, &bad).ok();
        (good && refused ? ok : failed)++;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), 200);
  EXPECT_EQ(failed.load(), 0);
}

int open_fds() {
  int n = 0;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (::readdir(d)) ++n;
    ::closedir(d);
  }
  return n;
}

TEST_F(DevicePluginSim, StartStopCyclesLeakNoSocketsOrDescriptors) {
  kubelet.start();
  auto cycle = [&](std::size_t round) {
    auto plugins = start_plugins();
    ASSERT_TRUE(kubelet.wait_for_registrations(kResources * round));
    PluginClient client(socket_of("nvidia.com/gpu"));
    client.watch();
    ASSERT_TRUE(client.wait_for_list([](const auto&) { return true; }));
    plugins->stop();  // ends the open stream too
    for (int i = 0; i < 200 && !client.stream_ended(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(client.stream_ended());
  };
  cycle(1);  // warms up gRPC's own long-lived descriptors
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int before = open_fds();
  for (std::size_t round = 2; round <= 4; ++round) cycle(round);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LE(open_fds(), before);
  EXPECT_EQ(sockets(), std::vector<std::string>{"kubelet.sock"});
}

}  // namespace
}  // namespace gpupack::k8s
