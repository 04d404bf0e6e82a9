// Issue 34: plans for NVIDIA's device plugin and DRA driver keep to what they can express, one test per
// rule (equal MPS slices, 48 replicas, 16 below compute capability 7.5, no MPS in MIG, one mode and one
// replica count per node) and the comparison of consumers.
#include "planner/consumer_rules.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "planner/consumer_search.hpp"
#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "random_rounds.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

using namespace test;

namespace {

Scenario for_consumer(std::vector<FleetEntry> fleet, std::vector<Workload> workloads, Consumer c) {
  Scenario s;
  s.fleet = std::move(fleet);
  s.workloads = std::move(workloads);
  assign_consumers(s, c);
  return s;
}

Plan plan_checked(const Scenario& s) {
  Plan p = make_plan(s, PlanOptions{});
  for (const auto& e : check_plan(s, p, ModelParameters{})) ADD_FAILURE() << e;
  return p;
}

int clients_on(const PlanGpu& g) {
  int n = 0;
  for (const auto& s : g.slices) n += static_cast<int>(s.clients.size());
  return n;
}

}  // namespace

TEST(ConsumerRules, NvidiaPluginMpsClientsGetEqualSlicesOfThreadsAndMemory) {
  // Unequal workloads of one tenant, with SLOs that time-slicing breaks: the agent would cap each at its
  // own demand.
  std::vector<Workload> w{workload("big", 6, 0.08, 3), workload("small", 1, 0.02, 5)};
  for (auto& x : w) {
    x.latency_slo_ms = 30;
    x.p99_alone_ms = 10;
  }
  const Scenario s = for_consumer({fleet("H100-80GB", 1)}, w, Consumer::nvidia_device_plugin);
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 1u);
  ASSERT_TRUE(p.unplaced.empty());
  const PlanSlice& sl = p.gpus[0].slices.at(0);
  ASSERT_EQ(sl.sharing, Sharing::mps);
  const int n = static_cast<int>(sl.clients.size());
  ASSERT_EQ(n, 8);
  for (const auto& c : sl.clients) {
    EXPECT_EQ(c.mps_active_thread_percentage, 100 / n);
    EXPECT_EQ(c.memory_limit_bytes, sl.memory_bytes / n / kMiB * kMiB);
  }
}

TEST(ConsumerRules, NvidiaPluginRefusesAReplicaThatDoesNotFitItsEqualShare) {
  ConsumerRules r;
  r.consumer = Consumer::nvidia_device_plugin;
  r.plugin = PluginSharing{Sharing::mps, false, 4};
  const std::uint64_t slice = 80 * kGiB;
  EXPECT_TRUE(fits_consumer_mps(r, slice, {{20 * kGiB, 25}, {1 * kGiB, 5}}));
  EXPECT_FALSE(fits_consumer_mps(r, slice, {{20 * kGiB + kMiB, 5}}));                // memory/4 = 20 GiB
  EXPECT_FALSE(fits_consumer_mps(r, slice, {{1 * kGiB, 26}}));                       // 100/4 = 25 %
  EXPECT_FALSE(fits_consumer_mps(r, slice, std::vector<ClientNeed>(5, {kGiB, 5})));  // 5 clients, 4 replicas
}

TEST(ConsumerRules, NvidiaPluginMpsAcceptsAtMost48Replicas) {
  EXPECT_EQ(nvidia_plugin_mps_max_replicas(catalog().get("H100-80GB")), 48);
  EXPECT_EQ(nvidia_plugin_mps_max_replicas(catalog().get("T4")), 48);  // compute capability 7.5
  ConsumerRules r = consumer_rules(fleet("H100-80GB", 1), -1);
  r.consumer = Consumer::nvidia_device_plugin;
  r.plugin = PluginSharing{Sharing::mps, false, 60};
  EXPECT_EQ(plugin_mps_replicas(r), 48);
  // 60 tiny replicas of one tenant on a pool configured for 60 MPS replicas: no GPU gets more than 48.
  Scenario s = for_consumer({fleet("H100-80GB", 2)}, {workload("tiny", 0.25, 0.005, 60)},
                            Consumer::nvidia_device_plugin);
  s.fleet[0].plugin_sharing = PluginSharing{Sharing::mps, false, 60};
  const Plan p = plan_checked(s);
  EXPECT_TRUE(p.unplaced.empty());
  for (const auto& g : p.gpus) EXPECT_LE(clients_on(g), 48);
}

TEST(ConsumerRules, NvidiaPluginMpsOnV100AcceptsAtMost16Replicas) {
  EXPECT_EQ(nvidia_plugin_mps_max_replicas(catalog().get("V100")), 16);  // 7.0 is below 7.5
  Scenario s =
      for_consumer({fleet("V100", 3)}, {workload("tiny", 0.1, 0.01, 40)}, Consumer::nvidia_device_plugin);
  s.fleet[0].plugin_sharing = PluginSharing{Sharing::mps, false, 40};
  const Plan p = plan_checked(s);
  EXPECT_TRUE(p.unplaced.empty());
  ASSERT_GE(p.gpus.size(), 3u);
  for (const auto& g : p.gpus) EXPECT_LE(clients_on(g), 16);
}

TEST(ConsumerRules, NvidiaPluginRunsNoMpsInsideMig) {
  // Tenants that share a GPU only through MIG: the agent runs MPS in each instance.
  std::vector<Workload> w{workload("a", 2, 0.02, 6, "red"), workload("b", 2, 0.02, 6, "blue")};
  const Plan agent = plan_checked(for_consumer({fleet("H100-80GB", 1)}, w, Consumer::gpupack_agent));
  ASSERT_EQ(agent.gpus.size(), 1u);
  EXPECT_EQ(agent.gpus[0].mode, GpuMode::mig_mps);
  for (Consumer c : {Consumer::nvidia_device_plugin}) {
    const Plan p = plan_checked(for_consumer({fleet("H100-80GB", 1)}, w, c));
    for (const auto& g : p.gpus) {
      for (const auto& s : g.slices) EXPECT_FALSE(s.profile >= 0 && s.sharing == Sharing::mps);
    }
  }
  PlanOptions forced;
  forced.forced = GpuMode::mig_mps;
  const Plan p = make_plan(for_consumer({fleet("H100-80GB", 1)}, w, Consumer::nvidia_device_plugin), forced);
  for (const auto& g : p.gpus) EXPECT_NE(g.mode, GpuMode::mig_mps);
  // The plan's reasons say what the pool's config is and that MPS inside MIG is not the plugin's.
  const Plan plugin = plan_checked(for_consumer({fleet("H100-80GB", 1)}, w, Consumer::nvidia_device_plugin));
  ASSERT_FALSE(plugin.gpus.empty());
  EXPECT_NE(plugin.gpus[0].why.find("(NVIDIA's device plugin config of the pool: "), std::string::npos)
      << plugin.gpus[0].why;
  bool said = false;
  for (const auto& r : plugin.gpus[0].rejected) {
    said = said || (r.mode == GpuMode::mig_mps &&
                    r.breaks.rfind("NVIDIA's device plugin runs no MPS inside MIG", 0) == 0);
  }
  EXPECT_TRUE(said);
}

TEST(ConsumerRules, NvidiaPluginGivesEveryNodeOneSharingModeAndOneReplicaCount) {
  // Steady inference (MPS for the agent) and notebooks (time-slicing for the agent) on one node of 4 GPUs.
  std::vector<Workload> w{workload("infer", 8, 0.1, 12), workload("nb", 4, 0.05, 10)};
  w[1].pattern = UsagePattern::intermittent;
  const Scenario s = for_consumer({fleet("H100-80GB", 4)}, w, Consumer::nvidia_device_plugin);
  const Plan p = plan_checked(s);
  EXPECT_TRUE(p.unplaced.empty());
  std::map<std::string, std::set<Sharing>> modes;
  std::map<std::string, std::set<std::pair<int, std::uint64_t>>> limits;
  for (const auto& g : p.gpus) {
    for (const auto& sl : g.slices) {
      if (sl.sharing != Sharing::exclusive) modes[g.node].insert(sl.sharing);
      for (const auto& c : sl.clients) {
        if (sl.sharing == Sharing::mps)
          limits[g.node].insert({*c.mps_active_thread_percentage, c.memory_limit_bytes});
      }
    }
  }
  for (const auto& [node, m] : modes) EXPECT_LE(m.size(), 1u) << node;
  for (const auto& [node, l] : limits) EXPECT_EQ(l.size(), 1u) << node;  // one replica count: one share
}

TEST(ConsumerRules, NvidiaPluginKeepsAReplicaThatNeedsItsOwnGpuOutOfSharedPools) {
  Workload alone = workload("fraud", 8, 0.1, 1);
  alone.isolation = Isolation::fault;
  const Scenario s =
      for_consumer({fleet("L4", 2)}, {alone, workload("small", 1, 0.05, 6)}, Consumer::nvidia_device_plugin);
  const Plan p = plan_checked(s);
  for (const auto& g : p.gpus) {
    for (const auto& sl : g.slices) {
      for (const auto& c : sl.clients) {
        if (c.replicas[0].workload == 0) {
          EXPECT_EQ(sl.sharing, Sharing::exclusive);
        }
      }
      if (sl.sharing == Sharing::exclusive) continue;
      for (const auto& other : p.gpus) {  // a shared config on the node would let any pod take a replica
        if (other.node == g.node) {
          for (const auto& os : other.slices) EXPECT_NE(os.clients[0].replicas[0].workload, 0);
        }
      }
    }
  }
}

TEST(ConsumerRules, NvidiaPluginServesOneTenantPerNodeWithSharedDevices) {
  // Two tenants of MPS work and two 8-GPU nodes: the agent puts both on one node; the plugin would give a
  // pod of one a replica of the other's GPU there.
  std::vector<Workload> w{workload("a", 4, 0.05, 12, "red"), workload("b", 4, 0.05, 12, "blue")};
  for (auto& x : w) {
    x.latency_slo_ms = 30;
    x.p99_alone_ms = 10;
  }
  FleetEntry f = fleet("H100-80GB", 16);
  f.mig = FleetMig::off;
  const Plan agent = plan_checked(for_consumer({f}, w, Consumer::gpupack_agent));
  std::set<std::string> agent_nodes;
  for (const auto& g : agent.gpus) agent_nodes.insert(g.node);
  EXPECT_EQ(agent_nodes.size(), 1u);
  const Scenario s = for_consumer({f}, w, Consumer::nvidia_device_plugin);
  const Plan p = plan_checked(s);
  EXPECT_TRUE(p.unplaced.empty());
  std::map<std::string, std::set<std::string>> tenants;
  for (const auto& g : p.gpus) {
    for (const auto& sl : g.slices) tenants[g.node].insert(sl.tenant);
  }
  EXPECT_EQ(tenants.size(), 2u);
  for (const auto& [node, t] : tenants) EXPECT_EQ(t.size(), 1u) << node;
  EXPECT_TRUE(plugin_tenant_conflicts(s, p).empty());
}

TEST(ConsumerRules, DraGivesEveryClientOfAnMpsClaimTheSameLimits) {
  const Scenario s = for_consumer(
      {fleet("H100-80GB", 1)}, {workload("big", 6, 0.08, 3), workload("small", 1, 0.02, 5)}, Consumer::dra);
  const Plan p = plan_checked(s);
  ASSERT_TRUE(p.unplaced.empty());
  for (const auto& g : p.gpus) {
    for (const auto& sl : g.slices) {
      if (sl.sharing != Sharing::mps) continue;
      std::set<std::pair<int, std::uint64_t>> l;
      for (const auto& c : sl.clients) l.insert({*c.mps_active_thread_percentage, c.memory_limit_bytes});
      EXPECT_EQ(l.size(), 1u);
    }
  }
}

TEST(ConsumerRules, TheComparisonSaysWhatEachConsumerPlaces) {
  // 40 small replicas of four tenants on one A100: the agent shares MIG instances under MPS.
  std::vector<Workload> w;
  for (const char* t : {"a", "b", "c", "d"}) {
    w.push_back(workload(std::string("w-") + t, 1, 0.01, 10, t));
    w.back().latency_slo_ms = 30;  // 3x its p99 alone: time-slicing's inflation breaks it, MPS's does not
    w.back().p99_alone_ms = 10;
  }
  const Scenario s = for_consumer({fleet("A100-80GB", 1)}, w, Consumer::gpupack_agent);
  const std::vector<ConsumerOutcome> rows = compare_consumers(s, PlanOptions{});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].consumer, Consumer::gpupack_agent);
  EXPECT_EQ(rows[1].consumer, Consumer::nvidia_device_plugin);
  EXPECT_EQ(rows[1].placed, 10);  // one tenant per whole GPU under its MPS, no MPS in MIG
  EXPECT_GT(rows[0].placed, rows[1].placed);
  ASSERT_TRUE(rows[1].gpus_needed);
  EXPECT_GT(*rows[1].gpus_needed, 1);
  for (const auto& r : rows) EXPECT_EQ(r.placed + r.unplaced, 40);
}

TEST(ConsumerRules, PoolsSharingNodesMustDeployWithOneConsumer) {
  Scenario s;
  s.fleet = {fleet("H100-80GB", 1), fleet("L4", 1)};
  s.fleet[0].deploy_with = Consumer::dra;
  s.fleet[0].deploy_with_given = true;
  EXPECT_THROW(assign_consumers(s, Consumer::gpupack_agent), InputError);
  s.fleet[1].node_prefix = "l4";
  EXPECT_NO_THROW(assign_consumers(s, Consumer::gpupack_agent));
  EXPECT_EQ(s.fleet[1].deploy_with, Consumer::gpupack_agent);
  Scenario nv;
  nv.fleet = {fleet("H100-80GB", 1), fleet("L4", 1)};
  EXPECT_THROW(assign_consumers(nv, Consumer::nvidia_device_plugin), InputError);
}

}  // namespace gpupack

namespace gpupack {

// Random scenarios planned for each consumer: every plan passes the plan checker, and under NVIDIA's
// plugin every MPS client of a node has the same limits (one replica count) within its 48/16 cap.
// All 12 rounds in Release; the first 4 (one on V100s) under ASan, where they took 27 s (random_rounds.hpp).
TEST(ConsumerRules, RandomScenariosKeepEveryConsumersRules) {
  std::mt19937 rng(34);
  for (int i = 0; i < test::random_rounds(12, 4); ++i) {
    const bool v100 = i % 3 == 2;
    Scenario base = random_scenario(rng, {fleet(v100 ? "V100" : "H100-80GB", 4)}, false, RandomOptions{});
    for (Consumer c : {Consumer::gpupack_agent, Consumer::nvidia_device_plugin, Consumer::dra}) {
      Scenario s = base;
      assign_consumers(s, c);
      const Plan p = make_plan(s, PlanOptions{});
      for (const auto& e : check_plan(s, p, ModelParameters{}))
        ADD_FAILURE() << to_string(c) << " " << i << ": " << e;
      if (c != Consumer::nvidia_device_plugin) continue;
      std::map<std::string, std::set<std::pair<int, std::uint64_t>>> limits;
      for (const auto& g : p.gpus) {
        for (const auto& sl : g.slices) {
          EXPECT_FALSE(sl.profile >= 0 && sl.sharing == Sharing::mps);
          if (sl.sharing != Sharing::mps) continue;
          EXPECT_LE(static_cast<int>(sl.clients.size()), v100 ? 16 : 48);
          for (const auto& cl : sl.clients)
            limits[g.node].insert({*cl.mps_active_thread_percentage, cl.memory_limit_bytes});
        }
      }
      for (const auto& [node, l] : limits) EXPECT_EQ(l.size(), 1u) << i << " " << node;
    }
  }
}

}  // namespace gpupack
