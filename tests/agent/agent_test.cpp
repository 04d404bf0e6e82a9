// The agent end to end in one process: fake GPU machine, fake MPS control program, real HTTP.
#include "agent/agent.hpp"

#include <grpcpp/grpcpp.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "agent/admission_slots.hpp"
#include "core/errors.hpp"
#include "fakes/fake_proc_reader.hpp"
#include "gpu/fake_gpu_backend.hpp"
#include "os/filesystem.hpp"
#include "mps/mps_fixture.hpp"
#include "podresources_v1.grpc.pb.h"

namespace gpupack {
namespace {

class AgentTest : public testing::MpsFixture {
 protected:
  std::unique_ptr<FakeGpuBackend> gpu = FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/two-gpus.json");
  testing::FakeProcReader proc;
  const GpuCatalog catalog = builtin_catalog();
  const std::string gpu0 = "GPU-11111111-2222-3333-4444-555555555555";

  std::string config(const std::string& gpus) const {
    return "mps_root: " + tmp.path() + "/mps\ncontrol_binary: " + FAKE_MPS_CONTROL +
           "\nmetrics_address: 127.0.0.1:0\ncheck_interval_seconds: 0.1\ngpus:\n" + gpus;
  }
  std::string write_config(const std::string& gpus) {
    fs.write_file(tmp / "node.yaml", config(gpus));
    return tmp / "node.yaml";
  }
  std::optional<int> daemon_pid(const std::string& target) {
    MpsDaemonOptions o;
    o.paths = {tmp.path() + "/mps/" + target + "/pipe", tmp.path() + "/mps/" + target + "/log"};
    o.binary = FAKE_MPS_CONTROL;
    return MpsDaemon(runner, fs, clock, o).pid();
  }
  MpsControl control_of(const std::string& target) {
    return MpsControl(runner, {tmp.path() + "/mps/" + target + "/pipe", tmp.path() + "/mps/" + target + "/log"},
                      FAKE_MPS_CONTROL, std::chrono::seconds(20));
  }
  void TearDown() override {
    const auto c = control_of(gpu0);
    if (c.send("get_server_list").ok) c.send("quit");
  }
};

TEST_F(AgentTest, ServesMetricsAndHealthAndRestoresAKilledDaemon) {
  const std::string path = write_config("  - {gpu: '0', mode: mps, clients: 4, limits: {sm_percent: 50, memory: 4GiB}}\n");
  proc.processes[4242] = {1000, "0::/kubepods.slice/kubepods-pod0f6b1e0e_4f0a_4a34_9f0b_2d6c7a1e9c11.slice/cri-containerd-" +
                                    std::string(64, 'a') + ".scope\n", {{"CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", "0=3G"}}, {}, {}};
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, path, "0.1.0");
  agent.start(0);
  ASSERT_GT(agent.port(), 0);
  httplib::Client http("127.0.0.1", agent.port());
  auto res = http.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->get_header_value("Content-Type").find("text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(res->body.find("gpupack_mps_daemon_up{target=\"" + gpu0 + "\""), std::string::npos);
  EXPECT_NE(res->body.find("pod_uid=\"0f6b1e0e-4f0a-4a34-9f0b-2d6c7a1e9c11\",container_id=\"" + std::string(64, 'a') + "\",pod=\"\",namespace=\"\",container=\"\"} 2147483648"),
            std::string::npos);
  EXPECT_NE(res->body.find("gpupack_process_memory_allocated_bytes{gpu=\"0\",uuid=\"" + gpu0 + "\",pid=\"4242\""), std::string::npos);
  auto health = http.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200) << health->body;

  // The defaults reached the daemon, then kill it: the agent restarts it.
  const auto defaults = fs.read_file(tmp.path() + "/mps/" + gpu0 + "/pipe/fake-defaults");
  ASSERT_TRUE(defaults);
  EXPECT_NE(defaults->find("default_device_pinned_mem_limit 0 4096M"), std::string::npos);
  const auto pid = daemon_pid(gpu0);
  ASSERT_TRUE(pid);
  runner.send_signal(*pid, SIGKILL);
  EXPECT_TRUE(eventually([&] {
    agent.refresh();
    const auto body = http.Get("/metrics");
    return body && body->body.find("gpupack_mps_daemon_restarts_total{target=\"" + gpu0 + "\"} 1") != std::string::npos &&
           body->body.find("gpupack_mps_daemon_up{target=\"" + gpu0 + "\",pipe_dir=\"" + tmp.path() + "/mps/" + gpu0 + "/pipe\"} 1") !=
               std::string::npos;
  }));
  agent.stop();
  EXPECT_FALSE(control_of(gpu0).send("get_server_list").ok);
}

TEST_F(AgentTest, ABadReloadKeepsTheOldConfigAndAGoodOneKeepsTheDaemon) {
  const std::string path = write_config("  - {gpu: '0', mode: mps, clients: 4}\n");
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, path, "0.1.0");
  agent.start(0);
  const auto before = daemon_pid(gpu0);
  ASSERT_TRUE(before);
  fs.write_file(path, "gpus: [{gpu: GPU-nope}]\n");
  EXPECT_FALSE(agent.reload());
  agent.refresh();
  EXPECT_NE(agent.metrics_text().find("gpupack_agent_config_reload_failures_total 1"), std::string::npos);
  EXPECT_NE(agent.metrics_text().find("gpupack_sharing_clients_limit{uuid=\"" + gpu0 + "\",target=\"" + gpu0 + "\"} 4"), std::string::npos);
  write_config("  - {gpu: '0', mode: mps, clients: 6, limits: {sm_percent: 30}}\n");
  EXPECT_TRUE(agent.reload());
  agent.refresh();
  EXPECT_NE(agent.metrics_text().find("gpupack_sharing_clients_limit{uuid=\"" + gpu0 + "\",target=\"" + gpu0 + "\"} 6"), std::string::npos);
  const auto after = daemon_pid(gpu0);
  EXPECT_EQ(before, after);  // same daemon: running clients were not dropped
  EXPECT_EQ(control_of(gpu0).send("get_default_active_thread_percentage").text, "30");
  agent.stop();
}

// Issue 16: a node.yaml whose key is not a scalar made the agent exit 70 at SIGHUP after it had quit its
// MPS daemon. Every bad file is now refused before anything changes: the daemon and the old config stay.
TEST_F(AgentTest, EveryBadFileAtReloadKeepsTheDaemonAndTheOldConfig) {
  const std::string path = write_config("  - {gpu: '0', mode: mps, clients: 4}\n");
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, path, "0.1.0");
  agent.start(0);
  const auto before = daemon_pid(gpu0);
  ASSERT_TRUE(before);
  const std::vector<std::string> bad = {
      "? [a]\n: 1\n",
      "{a: 1}: 2\n",
      config("  - {gpu: '0', mode: mps, clients: 2, clients: 60}\n"),
      config("  - {gpu: '0', mode: mps}\n  - {gpu: " + gpu0 + ", mode: mps}\n"),
      config("  - {gpu: '0', mode: mps, clients: 4}\n") + "device_plugin:\n  plugin_dir: " + tmp.path() +
          "\n  features_file: ''\n  mps_slices:\n    '0': [{sm_percent: 50, memory: 70GiB, count: 2}]\n",
  };
  for (const auto& text : bad) {
    fs.write_file(path, text);
    EXPECT_FALSE(agent.reload()) << text;
    EXPECT_EQ(daemon_pid(gpu0), before) << text;
    EXPECT_TRUE(control_of(gpu0).send("get_server_list").ok) << text;
  }
  agent.refresh();
  EXPECT_NE(agent.metrics_text().find("gpupack_agent_config_reload_failures_total " + std::to_string(bad.size())), std::string::npos);
  EXPECT_NE(agent.metrics_text().find("gpupack_sharing_clients_limit{uuid=\"" + gpu0 + "\",target=\"" + gpu0 + "\"} 4"), std::string::npos);
  // The same files at start are input errors (exit 2), not internal ones.
  for (const auto& text : bad) {
    fs.write_file(tmp / "other.yaml", text);
    Agent fresh({runner, fs, clock, proc, *gpu, catalog}, tmp / "other.yaml", "0.1.0");
    EXPECT_THROW(fresh.start(0), InputError) << text;
  }
  agent.stop();
}

// Issue 16: modes regardless of the umask, and the admission book the metrics read.
TEST_F(AgentTest, DirectoriesAndSlotsHaveTheirModesUnderUmaskZeroAndMetricsCountHeldSlots) {
  const mode_t old = ::umask(0);
  const std::string path = write_config("  - {gpu: '0', mode: mps, clients: 3}\n");
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, path, "0.1.0");
  agent.start(0);
  ::umask(old);
  const std::string target = tmp.path() + "/mps/" + gpu0;
  EXPECT_EQ(fs.stat(tmp.path() + "/mps").mode, 0755u);
  EXPECT_EQ(fs.stat(target).mode, 0755u);
  EXPECT_EQ(fs.stat(target + "/pipe").mode, 0700u);
  EXPECT_EQ(fs.stat(target + "/log").mode, 0700u);
  EXPECT_EQ(fs.stat(target + "/clients").mode, 0755u);
  EXPECT_EQ(fs.stat(target + "/clients/slot-2").mode, 0644u);
  auto first = AdmissionSlots(fs, target + "/clients", 3).take();
  auto second = AdmissionSlots(fs, target + "/clients", 3).take();
  ASSERT_TRUE(first && second);
  agent.refresh();
  EXPECT_NE(agent.metrics_text().find("gpupack_sharing_clients_admitted{uuid=\"" + gpu0 + "\",target=\"" + gpu0 + "\"} 2"),
            std::string::npos);
  first.reset();
  agent.refresh();
  EXPECT_NE(agent.metrics_text().find("gpupack_sharing_clients_admitted{uuid=\"" + gpu0 + "\",target=\"" + gpu0 + "\"} 1"),
            std::string::npos);
  agent.stop();
}

TEST_F(AgentTest, RefusesToStartOnAnUnknownGpuOrAForeignPipeDirectory) {
  Agent unknown({runner, fs, clock, proc, *gpu, catalog}, write_config("  - {gpu: GPU-nope, mode: mps}\n"), "0.1.0");
  EXPECT_THROW(unknown.start(0), InputError);
  fs.make_dirs(tmp.path() + "/mps/" + gpu0 + "/pipe", 0700);
  fs.owner_of[tmp.path() + "/mps/" + gpu0 + "/pipe"] = fs.effective_uid() + 1;
  Agent foreign({runner, fs, clock, proc, *gpu, catalog}, write_config("  - {gpu: '0', mode: mps}\n"), "0.1.0");
  EXPECT_THROW(foreign.start(0), MpsError);
}

// Issue 38 item 1: the agent (root) works under mps_root; one that other users can write, or under a parent
// they can write, lets them plant links there. Refused at start and at reload (the old config stays).
TEST_F(AgentTest, RefusesAnMpsRootOtherUsersCanWrite) {
  fs.make_dirs(tmp / "mps", 0777);
  ASSERT_EQ(::chmod((tmp / "mps").c_str(), 0777), 0);
  Agent open_root({runner, fs, clock, proc, *gpu, catalog}, write_config("  - {gpu: '0', mode: time-slicing, clients: 2}\n"), "0.1.0");
  try {
    open_root.start(0);
    ADD_FAILURE() << "a world-writable mps_root was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("node config: mps_root: " + tmp.path() + "/mps has mode 0777: writable by other users"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs.stat(tmp / "mps/" + gpu0).exists);  // nothing made under it
  ASSERT_EQ(::chmod((tmp / "mps").c_str(), 0755), 0);
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, write_config("  - {gpu: '0', mode: time-slicing, clients: 2}\n"), "0.1.0");
  agent.start(0);
  fs.make_dirs(tmp / "open/mps", 0755);
  ASSERT_EQ(::chmod((tmp / "open").c_str(), 0777), 0);  // a parent anyone can write
  fs.write_file(tmp / "node.yaml", "mps_root: " + tmp.path() + "/open/mps\nmetrics_address: 127.0.0.1:0\ngpus: [{gpu: '0'}]\n");
  EXPECT_FALSE(agent.reload());
  agent.refresh();
  EXPECT_NE(agent.metrics_text().find("gpupack_sharing_clients_limit{uuid=\"" + gpu0 + "\",target=\"" + gpu0 + "\"} 2"), std::string::npos);
  agent.stop();
}

// Issue 38 item 5: SIGHUP while node.yaml is a FIFO blocked the agent in open() for good, and /healthz
// kept answering 200 from the last GPU read. The FIFO is refused at once; a loop that stops reading the
// GPUs turns /healthz to 503 after 3 check intervals (2 s at least).
TEST_F(AgentTest, AFifoConfigIsRefusedAtOnceAndStaleGpuReadsTurnHealthzTo503) {
  const std::string path = write_config("  - {gpu: '0', mode: time-slicing, clients: 2}\n");
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, path, "0.1.0");
  agent.start(0);
  fs.remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const auto before = std::chrono::steady_clock::now();
  EXPECT_FALSE(agent.reload());
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(5));
  httplib::Client http("127.0.0.1", agent.port());
  auto fresh = http.Get("/healthz");
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->status, 200) << fresh->body;
  // No refresh for 2.5 s (> max(3 x 0.1 s, 2 s)): as if the loop were stuck.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  auto stale = http.Get("/healthz");
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 503);
  EXPECT_NE(stale->body.find("gpus: stale: no GPU read for 2 s (more than 3 check intervals)"), std::string::npos) << stale->body;
  agent.refresh();
  auto again = http.Get("/healthz");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200) << again->body;
  agent.stop();
}

// Issue 38 item 13: without a device_plugin section, clients 12 x 8 GiB on an 80 GiB GPU was accepted at
// start and reload; a reload from clients 6 to 2 with 6 running exported admitted = 2.
TEST_F(AgentTest, AdmissionRefusesOvercommitAndCountsHoldersAboveALoweredLimit) {
  const std::string over = config("  - {gpu: '0', mode: mps, clients: 12, limits: {memory: 8GiB}}\n");
  fs.write_file(tmp / "over.yaml", over);
  Agent refused({runner, fs, clock, proc, *gpu, catalog}, tmp / "over.yaml", "0.1.0");
  EXPECT_THROW(refused.start(0), InputError);

  const std::string path = write_config("  - {gpu: '0', mode: time-slicing, clients: 6}\n");
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, path, "0.1.0");
  agent.start(0);
  fs.write_file(path, over);
  EXPECT_FALSE(agent.reload());
  const std::string clients = tmp.path() + "/mps/" + gpu0 + "/clients";
  std::vector<std::unique_ptr<FileLock>> running;
  for (int i = 0; i < 6; ++i) running.push_back(AdmissionSlots(fs, clients, 6).take());
  write_config("  - {gpu: '0', mode: time-slicing, clients: 2}\n");
  ASSERT_TRUE(agent.reload());
  agent.refresh();
  const std::string admitted = "gpupack_sharing_clients_admitted{uuid=\"" + gpu0 + "\",target=\"" + gpu0 + "\"} ";
  EXPECT_NE(agent.metrics_text().find(admitted + "6"), std::string::npos) << agent.metrics_text();
  EXPECT_FALSE(AdmissionSlots(fs, clients, 2).take());
  running.resize(1);
  agent.refresh();
  EXPECT_NE(agent.metrics_text().find(admitted + "1"), std::string::npos);
  agent.stop();
}

// A fake kubelet PodResourcesLister: one container holding the first MPS slice of GPU 0.
class OnePodLister final : public v1::PodResourcesLister::Service {
 public:
  grpc::Status List(grpc::ServerContext*, const v1::ListPodResourcesRequest*, v1::ListPodResourcesResponse* out) override {
    auto* pod = out->add_pod_resources();
    pod->set_name("infer-0");
    pod->set_namespace_("search");
    auto* c = pod->add_containers();
    c->set_name("model");
    auto* d = c->add_devices();
    d->set_resource_name("gpupack.io/mps-50");
    d->add_device_ids(device_id);
    return grpc::Status::OK;
  }
  std::string device_id;
};

TEST_F(AgentTest, MetricsNameThePodOfAnMpsClientThroughPodResources) {
  OnePodLister lister;
  lister.device_id = gpu0 + "::0";
  grpc::ServerBuilder b;
  b.AddListeningPort("unix://" + tmp.path() + "/pod-resources.sock", grpc::InsecureServerCredentials());
  b.RegisterService(&lister);
  auto server = b.BuildAndStart();
  ASSERT_TRUE(server);
  fs.write_file(tmp / "node.yaml",
                config("  - {gpu: '0', mode: mps, clients: 2, limits: {sm_percent: 50}}\n") +
                    "device_plugin:\n  directory: " + tmp.path() + "/plugins\n  pod_resources_socket: " + tmp.path() +
                    "/pod-resources.sock\n  features_file: ''\n");
  // The MPS client process (NVML lists it) carries the device IDs its container was allocated.
  std::filesystem::create_directories(tmp.path() + "/plugins");  // kubelet creates it
  proc.processes[4242] = {1000, "", {{"GPUPACK_DEVICE_IDS", gpu0 + "::0"}}, {}, {}};
  Agent agent({runner, fs, clock, proc, *gpu, catalog}, tmp / "node.yaml", "0.1.0");
  agent.start(0);
  const std::string text = agent.metrics_text();
  EXPECT_NE(text.find("pid=\"4242\""), std::string::npos) << text;
  EXPECT_NE(text.find("pod=\"infer-0\",namespace=\"search\",container=\"model\""), std::string::npos) << text;
  agent.stop();
  server->Shutdown();
}

}  // namespace
}  // namespace gpupack
