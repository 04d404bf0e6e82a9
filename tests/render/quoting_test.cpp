// Issue 12: the second line of defence. Values that the plan reader would reject still cannot change
// what a rendered script does or break the file's format.
#include "render/quoting.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "fuzz/shell_skeleton.hpp"
#include "render/render_test_support.hpp"
#include "render/targets.hpp"

namespace gpupack {

TEST(Quoting, ShellQuoteMakesOneWord) {
  EXPECT_EQ(shell_quote("gpu0"), "'gpu0'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("it's $(id)"), "'it'\\''s $(id)'");
}

TEST(Quoting, CommentTextStaysOnOneLine) {
  EXPECT_EQ(comment_text("H100\ntouch pwned\n#"), "H100\\x0atouch pwned\\x0a#");
}

TEST(Quoting, HclStringEscapesQuotesAndTemplates) {
  EXPECT_EQ(hcl_string("nvidia-l4"), "\"nvidia-l4\"");
  EXPECT_EQ(hcl_string("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
  EXPECT_EQ(hcl_string("${file(\"/etc/passwd\")} %{if}"), "\"$${file(\\\"/etc/passwd\\\")} %%{if}\"");
  EXPECT_EQ(hcl_string(std::string("\x01", 1)), "\"\\u0001\"");
}

namespace {
// The issue's reproducer, set past the reader: the model, a node, an id and a MIG profile with a newline,
// a command and quotes.
constexpr const char* kHostile = "H100\ntouch pwned\n# '$(reboot)' \"`id`\"";

std::vector<std::string> skeletons(const PlanDocument& plan) {
  std::vector<std::string> out;
  for (const auto& f : render_mps_target(plan).files) {
    if (f.path.size() > 3 && f.path.compare(f.path.size() - 3, 3, ".sh") == 0) {
      const auto s = fuzzing::shell_skeleton(f.content);
      EXPECT_TRUE(s.balanced) << f.path;
      out.push_back(s.text);
    }
  }
  return out;
}
}  // namespace

TEST(Quoting, MpsScriptsKeepEveryPlanValueInCommentsOrSingleQuotes) {
  const PlanDocument base = testing::mixed_plan();
  const auto expected = skeletons(base);
  ASSERT_FALSE(expected.empty());
  PlanDocument p = base;
  for (auto& gpu : p.gpus) {
    gpu.model = kHostile;
    for (auto& s : gpu.slices) {
      if (s.profile) s.profile = kHostile;
    }
  }
  EXPECT_EQ(skeletons(p), expected);
  p = base;
  for (auto& gpu : p.gpus) gpu.node = kHostile;
  EXPECT_EQ(skeletons(p), expected);
  p = base;
  for (auto& gpu : p.gpus) gpu.id = kHostile;
  EXPECT_EQ(skeletons(p), expected);
}

TEST(Quoting, NodeTemplateWritesTheModelAsAnHclString) {
  PlanDocument p = testing::mixed_plan();
  p.gpus[0].model = "X\" = 1\n}\nresource \"evil\" \"x\" {";
  const TargetOutput out = render_node_template_target(p, builtin_catalog());
  const RenderedFile* tf = testing::find_file(out.files, "node-template/gpu.tf");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->content.find("\nresource"), std::string::npos) << tf->content;
  EXPECT_NE(tf->content.find("\"nvidia-x\\\" = 1\\n}\\nresource \\\"evil\\\" \\\"x\\\" {\" = {"), std::string::npos)
      << tf->content;
}

TEST(Quoting, AgentConfigCommentCannotAddYaml) {
  PlanDocument p = testing::mixed_plan();
  for (auto& gpu : p.gpus) gpu.node = "n\nversion: 2";
  p.nodes = {"n\nversion: 2"};
  for (const auto& f : render_agent_config_target(p).files) {
    if (f.path.size() > 9 && f.path.compare(f.path.size() - 9, 9, "node.yaml") == 0) {
      EXPECT_EQ(YAML::Load(f.content)["version"].as<int>(), 1) << f.content;
    } else {  // agent.yaml: the node names are values of the DaemonSet's node affinity, nothing more
      for (const auto& doc : YAML::LoadAll(f.content)) EXPECT_FALSE(doc["version"]) << f.content;
    }
  }
}

TEST(Quoting, DeploymentsYamlGivesBackAHostileWorkloadName) {
  PlanDocument p = testing::mixed_plan();
  const std::string hostile = "w: x\n- y # z \"' {[&a *b";
  for (auto& gpu : p.gpus) {
    for (auto& s : gpu.slices) {
      for (auto& c : s.clients) c.workload = hostile;
    }
  }
  const TargetOutput out = render_workloads_target(p, builtin_catalog(), Consumer::gpupack_agent);
  const RenderedFile* f = testing::find_file(out.files, "k8s-workloads/deployments.yaml");
  ASSERT_NE(f, nullptr);
  for (const YAML::Node& doc : YAML::LoadAll(f->content)) {
    EXPECT_EQ(doc["metadata"]["labels"]["app.kubernetes.io/name"].as<std::string>(), hostile);
    EXPECT_EQ(doc["spec"]["template"]["spec"]["containers"][0]["name"].as<std::string>(), hostile);
  }
}

}  // namespace gpupack
