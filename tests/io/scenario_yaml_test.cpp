#include "io/scenario_yaml.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "io/default_scenario.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

namespace {

const GpuCatalog& catalog() {
  static const GpuCatalog c = builtin_catalog();
  return c;
}

Scenario parse(const std::string& text) { return parse_scenario_yaml(text, "in.yaml", catalog()); }

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(ScenarioYaml, ReadsEveryFieldAndAppliesDefaults) {
  const Scenario s = parse(R"(
cuda: "13.1"
context_overhead: 768MiB
fleet:
  - {model: h100 80gb, count: 3, node_prefix: gpu, gpus_per_node: 2, cost_per_hour: 4.5}
workloads:
  - name: a
    memory: 6GiB
    compute: 0.25
  - {name: b, replicas: 4, memory: 512MiB, compute: 0.02, latency_slo_ms: 20, p99_alone_ms: 5,
     tenant: team-x, isolation: memory, pattern: intermittent, group: g}
)");
  ASSERT_EQ(s.fleet.size(), 1u);
  EXPECT_EQ(s.fleet[0].model.name, "H100-SXM5-80GB");
  EXPECT_EQ(s.fleet[0].count, 3);
  EXPECT_EQ(s.fleet[0].node_prefix, "gpu");
  EXPECT_EQ(*s.fleet[0].cost_per_hour, 4.5);
  EXPECT_EQ(s.cuda, (CudaVersion{13, 1}));
  EXPECT_EQ(s.context_overhead_bytes, 768 * kMiB);
  const Workload& a = s.workloads[0];
  EXPECT_EQ(a.replicas, 1);
  EXPECT_EQ(a.memory_bytes, 6 * kGiB);
  EXPECT_EQ(a.tenant, "default");
  EXPECT_EQ(a.isolation, Isolation::none);
  EXPECT_FALSE(a.latency_slo_ms);
  EXPECT_FALSE(a.group);
  const Workload& b = s.workloads[1];
  EXPECT_EQ(b.replicas, 4);
  EXPECT_EQ(b.tenant, "team-x");
  EXPECT_EQ(b.isolation, Isolation::memory);
  EXPECT_EQ(b.pattern, UsagePattern::intermittent);
  EXPECT_EQ(*b.group, "g");
  EXPECT_DOUBLE_EQ(*b.max_p99_inflation(ModelParameters{}.p99_alone_share_of_slo), 4.0);
}

TEST(ScenarioYaml, SloMarginTightensTheSloThePlanPacksTo) {
  const Scenario s = parse(
      "workloads:\n"
      "  - {name: a, memory: 1GiB, compute: 0.1, latency_slo_ms: 20, p99_alone_ms: 5, slo_margin: 0.25}\n"
      "  - {name: b, memory: 1GiB, compute: 0.1, latency_slo_ms: 20, p99_alone_ms: 5, slo_margin: 0}\n"
      "  - {name: c, memory: 1GiB, compute: 0.1, latency_slo_ms: 20, p99_alone_ms: 5}\n");
  EXPECT_DOUBLE_EQ(*s.workloads[0].planning_slo_ms(), 16.0);
  EXPECT_DOUBLE_EQ(*s.workloads[0].max_p99_inflation(ModelParameters{}.p99_alone_share_of_slo), 3.2);
  EXPECT_DOUBLE_EQ(*s.workloads[1].max_p99_inflation(ModelParameters{}.p99_alone_share_of_slo), 4.0);
  EXPECT_FALSE(s.workloads[2].slo_margin);  // the default is set where a profile is loaded (profile_loading)
  EXPECT_DOUBLE_EQ(*s.workloads[2].max_p99_inflation(ModelParameters{}.p99_alone_share_of_slo), 4.0);
  EXPECT_EQ(error_of("workloads:\n  - {name: a, memory: 1GiB, compute: 0.1, slo_margin: 0.1}\n"),
            "in.yaml:2:55: 'slo_margin' needs 'latency_slo_ms'");
  EXPECT_EQ(error_of("workloads: [{name: a, memory: 1GiB, compute: 0.1, latency_slo_ms: 9, slo_margin: -0.1}]"),
            "in.yaml:1:82: 'slo_margin' must be from 0 to 0.9, got -0.1");
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: 0.1, latency_slo_ms: 9, slo_margin: 2}]")
                .find("'slo_margin' must be from 0 to 0.9, got 2"),
            std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: 0.1, latency_slo_ms: 9, slo_margin: nan}]")
                .find("'slo_margin' must be a number, got 'nan'"),
            std::string::npos);
}

// Issue 38 item 4: NaN and the infinities in every numeric field, in YAML's spellings too.
TEST(ScenarioYaml, RefusesNanAndInfinitiesInEveryNumber) {
  for (const std::string v : {".nan", "nan", ".inf", "-.inf", "inf", "1e999"}) {
    for (const std::string field : {"compute", "latency_slo_ms", "p99_alone_ms"}) {
      // The other fields valid, so that the error is this field's.
      std::string text = "workloads: [{name: a, memory: 1GiB, " + field + ": " + v;
      if (field != "compute") text += ", compute: 0.1";
      if (field == "p99_alone_ms") text += ", latency_slo_ms: 9";
      text += "}]";
      EXPECT_NE(error_of(text).find("'" + field + "' must be a number, got '" + v + "'"), std::string::npos) << text << ": " << error_of(text);
    }
    for (const std::string field : {"cost_per_hour", "cpu_cores"}) {
      const std::string text = "fleet: [{model: H100-SXM5-80GB, count: 1, " + field + ": " + v +
                               "}]\nworkloads: [{name: a, memory: 1GiB, compute: 0.1}]";
      EXPECT_NE(error_of(text).find("'" + field + "' must be a number"), std::string::npos) << text << ": " << error_of(text);
    }
  }
}

TEST(ScenarioYaml, FleetIsOptional) {
  EXPECT_TRUE(parse("workloads: [{name: a, memory: 1GiB, compute: 0.1}]").fleet.empty());
}

TEST(ScenarioYaml, ErrorsNameLineColumnAndTheFix) {
  EXPECT_EQ(error_of("workloads:\n  - name: a\n    memory: 1GiB\n    compute: 0.1\n    replica: 2\n"),
            "in.yaml:5:5: unknown key 'replica' in a workload; did you mean 'replicas'? accepted: name, replicas, "
            "memory, compute, latency_slo_ms, p99_alone_ms, slo_margin, tenant, isolation, pattern, group, profile, deploy");
  EXPECT_EQ(error_of("workloads:\n  - name: a\n    memory: 9TiB\n    compute: 0.1\n"),
            "in.yaml:3:13: 'memory' of 9TiB is absurd: at most 1TiB");
  EXPECT_NE(error_of("workloads: [{name: a, memory: 0GiB, compute: 0.1}]").find("must be positive"), std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: -1GiB, compute: 0.1}]").find("no number"), std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: 0}]").find("'compute' must be above 0"),
            std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: 1.5}]").find("at most 1"), std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: lots}]").find("must be a number"), std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, replicas: 2.5, memory: 1GiB, compute: 0.1}]").find("whole number"),
            std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, replicas: 0, memory: 1GiB, compute: 0.1}]").find("between 1"),
            std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: [1], compute: 0.1}]").find("single value"), std::string::npos);
  EXPECT_EQ(error_of("workloads:\n  - {name: a, memory: 1GiB, compute: 0.1}\n  - {name: a, memory: 1GiB, compute: 0.1}\n"),
            "in.yaml:3:12: duplicate workload name 'a'");
  EXPECT_NE(error_of("fleet: [{model: H300, count: 1}]\nworkloads: [{name: a, memory: 1GiB, compute: 0.1}]")
                .find("in.yaml:1:17: unknown GPU model 'H300'"),
            std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: 0.1, isolation: strong}]").find("accepted: none"),
            std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: A_1, memory: 1GiB, compute: 0.1}]").find("lower-case"), std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: 0.1, group: g, isolation: fault}]").find("forbids"),
            std::string::npos);
  EXPECT_EQ(error_of("workloads:\n  - name: a\n    memory: 1GiB\n   compute: 0.1\n"),
            "in.yaml:4:4: YAML syntax error: end of sequence not found");
  EXPECT_EQ(error_of("fleet: []\n"), "in.yaml:1:8: 'fleet' must be a non-empty list");
  EXPECT_NE(error_of("- a\n").find("expected a map"), std::string::npos);
  EXPECT_NE(error_of("workloads: [{name: a, memory: 1GiB, compute: 0.1, memory: 2GiB}]").find("given twice"),
            std::string::npos);
  EXPECT_NE(error_of("{}").find("needs 'workloads'"), std::string::npos);
  EXPECT_NE(error_of("workloads: " + std::string(5000, '[')).find("nested deeper than 128 levels"), std::string::npos);
  std::string dashes;
  for (int i = 0; i < 600; ++i) dashes += "- ";
  EXPECT_NE(error_of(dashes + "a").find("nested deeper"), std::string::npos);
}

TEST(ScenarioYaml, TheEmbeddedDefaultIsTheLabsQuestion) {
  const Scenario s = parse_scenario_yaml(default_scenario_yaml(), kDefaultScenarioName, catalog());
  EXPECT_EQ(s.workloads.size(), 40u);
  ASSERT_EQ(s.fleet.size(), 1u);
  EXPECT_EQ(s.fleet[0].model.name, "A100-SXM4-80GB");
  EXPECT_EQ(s.fleet[0].count, 1);
  for (const Workload& w : s.workloads) {
    EXPECT_GE(w.memory_bytes, kGiB / 2);
    EXPECT_LE(w.memory_bytes, 2 * kGiB);
    EXPECT_LE(w.compute, 0.05);
    EXPECT_TRUE(w.latency_slo_ms);
  }
}

// Issue 12: a billion-laughs document under a valid key (inside a workload). yaml-cpp keeps an alias
// as a reference to its anchor's node (no copy), and the reader only walks the scalars it expects, so
// the 10^9 expansion never happens: the field is rejected as "not a single value" at once.
TEST(ScenarioYaml, BillionLaughsInsideAWorkloadIsRejectedWithoutExpanding) {
  // pattern: [&a0 [lol x10], &a1 [*a0 x10], ..., &a9 [*a8 x10]]: 10^10 "lol"s if expanded.
  std::string doc = "workloads:\n  - name: w\n    memory: 1GiB\n    compute: 0.1\n    pattern: [&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]";
  for (int level = 1; level <= 9; ++level) {
    doc += ", &a" + std::to_string(level) + " [";
    for (int k = 0; k < 10; ++k) doc += std::string(k ? ", " : "") + "*a" + std::to_string(level - 1);
    doc += "]";
  }
  doc += "]\n";
  const std::string error = error_of(doc);
  EXPECT_NE(error.find("'pattern' must be a single value"), std::string::npos) << error;

  // The same bomb as the value of a known list key: rejected before anything walks it.
  std::string in_tenant = "workloads:\n  - name: w\n    memory: 1GiB\n    compute: 0.1\n    tenant: &b0 [lol, lol]\n";
  for (int level = 1; level <= 30; ++level) {
    in_tenant += "  - &b" + std::to_string(level) + " [*b" + std::to_string(level - 1) + ", *b" +
                 std::to_string(level - 1) + "]\n";
  }
  EXPECT_NE(error_of(in_tenant).find("'tenant' must be a single value"), std::string::npos) << error_of(in_tenant);
}

TEST(ScenarioYaml, QuotesBackInputEscapedAndShortened) {
  const std::string error = error_of("workloads:\n  - name: \"a\\e[2J" + std::string(100000, 'b') + "\"\n    memory: 1GiB\n    compute: 0.1\n");
  EXPECT_NE(error.find("got 'a\\x1b[2Jbbb"), std::string::npos) << error.substr(0, 300);
  EXPECT_NE(error.find("... (100005 bytes)"), std::string::npos);
  EXPECT_LT(error.size(), 600u);
}

// Issue 12: count 100000 GPUs with 100000 replicas did not plan in 60 s. The limits hold for all fleet
// entries and all workloads together.
TEST(ScenarioYaml, RefusesScenariosAboveTheDocumentedSize) {
  const std::string w = "workloads: [{name: a, replicas: 6000, memory: 1GiB, compute: 0.01}";
  EXPECT_NE(error_of("fleet: [{model: H100-80GB, count: 100000}]\n" + w + "]").find("'count' must be between 1 and 10000"),
            std::string::npos);
  EXPECT_NE(error_of("fleet: [{model: H100-80GB, count: 6000}, {model: L4, count: 6000}]\n" + w + "]")
                .find("more than 10000 GPUs in all"),
            std::string::npos);
  EXPECT_NE(error_of(w + ", {name: b, replicas: 6000, memory: 1GiB, compute: 0.01}]").find("more than 10000 replicas in all"),
            std::string::npos);
  EXPECT_EQ(error_of("fleet: [{model: H100-80GB, count: 10000}]\n" + w + ", {name: b, replicas: 4000, memory: 1GiB, compute: 0.01}]"),
            "no error");
}

// Issue 32: a fleet entry says whether its GPUs may be given a MIG layout, are not in MIG mode, or are
// already configured as one layout (docs/workloads.md, `fleet[].mig`).
TEST(ScenarioYaml, FleetMigAllowedOffOrAConfiguredLayout) {
  const std::string head = "workloads: [{name: a, memory: 1GiB, compute: 0.1}]\nfleet:\n";
  EXPECT_EQ(parse(head + "  - {model: A100-80GB}\n").fleet[0].mig, FleetMig::allowed);
  EXPECT_EQ(parse(head + "  - {model: H200, mig: off}\n").fleet[0].mig, FleetMig::off);
  EXPECT_EQ(parse(head + "  - {model: L4, mig: off}\n").fleet[0].mig, FleetMig::off);
  const Scenario fixed = parse(head + "  - {model: A100-80GB, mig: \"3g.40gb,2g.20gb, 2x1g.10gb\"}\n");
  ASSERT_EQ(fixed.fleet[0].mig, FleetMig::fixed);
  int instances = 0;
  for (int c : fixed.fleet[0].mig_layout) instances += c;
  EXPECT_EQ(instances, 4);
  EXPECT_NE(error_of(head + "  - {model: A100-80GB, mig: \"7g.80gb,1g.10gb\"}\n").find("does not fit one"), std::string::npos);
  EXPECT_NE(error_of(head + "  - {model: A100-80GB, mig: sometimes}\n").find("'mig' must be allowed, off or a MIG layout"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  - {model: L4, mig: \"1g.10gb\"}\n").find("this GPU has no MIG"), std::string::npos);
  EXPECT_NE(error_of(head + "  - {model: A100-80GB, mig: \"\"}\n").find("'mig' must be"), std::string::npos);
}

// Issue 32: a fleet of fewer than 8 GPUs is one node unless it says otherwise (its cpu_cores per GPU).
TEST(ScenarioYaml, GpusPerNodeDefaultsToTheCountUpToEight) {
  const std::string head = "workloads: [{name: a, memory: 1GiB, compute: 0.1}]\nfleet:\n";
  EXPECT_EQ(parse(head + "  - {model: H100-80GB, count: 1, cpu_cores: 16}\n").fleet[0].gpus_per_node, 1);
  EXPECT_DOUBLE_EQ(host_cores_per_gpu(parse(head + "  - {model: H100-80GB, count: 1, cpu_cores: 16}\n").fleet[0]), 16);
  EXPECT_EQ(parse(head + "  - {model: H100-80GB, count: 3}\n").fleet[0].gpus_per_node, 3);
  EXPECT_EQ(parse(head + "  - {model: H100-80GB, count: 20}\n").fleet[0].gpus_per_node, 8);
  EXPECT_EQ(parse(head + "  - {model: H100-80GB, count: 2, gpus_per_node: 1}\n").fleet[0].gpus_per_node, 1);
  EXPECT_EQ(host_cores_arithmetic(parse(head + "  - {model: H100-80GB, count: 16, cpu_cores: 16}\n").fleet[0]),
            "cpu_cores 16 per node / 8 GPUs per node (gpus_per_node) = 2 cores per GPU");
}

// Issue 34: a fleet entry names the consumer that serves its GPUs to pods (`deploy_with:`).
TEST(ScenarioYaml, FleetDeployWithNamesAConsumer) {
  const std::string head = "workloads: [{name: a, memory: 1GiB, compute: 0.1}]\nfleet:\n";
  const Scenario plain = parse(head + "  - {model: L4}\n");
  EXPECT_EQ(plain.fleet[0].deploy_with, Consumer::gpupack_agent);
  EXPECT_FALSE(plain.fleet[0].deploy_with_given);
  const Scenario nv = parse(head + "  - {model: L4, deploy_with: nvidia-device-plugin}\n  - {model: H100-80GB, node_prefix: h}\n");
  EXPECT_EQ(nv.fleet[0].deploy_with, Consumer::nvidia_device_plugin);
  EXPECT_TRUE(nv.fleet[0].deploy_with_given);
  EXPECT_FALSE(nv.fleet[1].deploy_with_given);
  EXPECT_EQ(error_of(head + "  - {model: L4, deploy_with: kubevirt}\n"),
            "in.yaml:3:30: 'deploy_with' 'kubevirt' is not a consumer; accepted: gpupack-agent, nvidia-device-plugin, dra");
}

}  // namespace gpupack
