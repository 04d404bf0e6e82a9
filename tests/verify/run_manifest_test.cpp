// The manifest of recorded runs (verify/run_manifest.hpp): what it accepts and the one line it refuses with.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "verify/run_manifest.hpp"

namespace gpupack::verify {
namespace {

const std::string kRun =
    R"({"dir": "results/run1/mixed", "scenario": "tests/mixed.yaml", "gpu": "H100-SXM5-80GB", "machine": "a", "set": "held-out"})";

std::string manifest_with(const std::string& runs, const std::string& extra = "") {
  return R"({"schema": "gpupack-runs", "version": 1, "profiles": "tests/profiles", )" + extra + R"("runs": [)" + runs + "]}";
}

std::string refusal(const std::string& text) {
  try {
    parse_run_manifest(text, "m.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(RunManifest, ReadsEveryField) {
  const RunManifest m = parse_run_manifest(manifest_with(kRun, R"("about": "x", "sets": {"held-out": "y"}, )"), "m.json");
  EXPECT_EQ(m.profiles, "tests/profiles");
  ASSERT_EQ(m.runs.size(), 1u);
  EXPECT_EQ(m.runs[0].dir, "results/run1/mixed");
  EXPECT_EQ(m.runs[0].scenario, "tests/mixed.yaml");
  EXPECT_EQ(m.runs[0].gpu, "H100-SXM5-80GB");
  EXPECT_EQ(m.runs[0].machine, "a");
  EXPECT_EQ(m.runs[0].set, RunSet::held_out);
}

// A corpus run names the profiles it was planned from; a run that names none is predicted from the manifest's.
TEST(RunManifest, ReadsACorpusRunWithItsOwnProfiles) {
  const std::string corpus =
      R"({"dir": "results/run33/inference", "scenario": "results/run33/inference/scenario.yaml", "gpu": "H100-SXM5-80GB", )"
      R"("machine": "run33", "set": "corpus", "profiles": "results/run33/inference/profiles"})";
  const RunManifest m = parse_run_manifest(manifest_with(kRun + ", " + corpus), "m.json");
  ASSERT_EQ(m.runs.size(), 2u);
  EXPECT_EQ(m.runs[0].profiles, "");
  EXPECT_EQ(m.runs[1].set, RunSet::corpus);
  EXPECT_EQ(m.runs[1].profiles, "results/run33/inference/profiles");
  EXPECT_EQ(run_set_name(RunSet::corpus), "corpus");
  EXPECT_EQ(parse_run_set("corpus"), RunSet::corpus);
  std::string climbing = corpus;
  climbing.replace(climbing.find("results/run33/inference/profiles"), 8, "../../");
  EXPECT_NE(refusal(manifest_with(climbing)).find("\"profiles\" must be a path relative to the root"), std::string::npos);
}

TEST(RunManifest, RefusesWithOneLineNamingTheFileAndWhatIsAccepted) {
  EXPECT_EQ(refusal("{").rfind("m.json: ", 0), 0u);  // not JSON: the document reader's line
  EXPECT_NE(refusal(R"({"schema": "gpupack-model", "version": 1})").find("\"schema\" must be \"gpupack-runs\""),
            std::string::npos);
  EXPECT_NE(refusal(R"({"schema": "gpupack-runs", "version": 2})").find("\"version\" must be 1"), std::string::npos);
  EXPECT_NE(refusal(manifest_with(kRun, R"("extra": 1, )")).find("unknown key 'extra'"), std::string::npos);
  EXPECT_NE(refusal(manifest_with("")).find("\"runs\" must be a non-empty array"), std::string::npos);
  EXPECT_NE(refusal(manifest_with(kRun + ", " + kRun)).find("listed twice"), std::string::npos);
  std::string other = kRun;
  other.replace(other.find("held-out"), 8, "training");
  EXPECT_NE(refusal(manifest_with(other)).find("runs[0]: \"set\" must be in-sample, held-out or corpus"), std::string::npos);
  std::string climbing = kRun;
  climbing.replace(climbing.find("results/"), 8, "../../");
  EXPECT_NE(refusal(manifest_with(climbing)).find("relative to the root without '..'"), std::string::npos);
  std::string absolute = kRun;
  absolute.replace(absolute.find("tests/mixed"), 5, "/etc");
  EXPECT_NE(refusal(manifest_with(absolute)).find("\"scenario\" must be a path relative"), std::string::npos);
  std::string no_machine = kRun;
  no_machine.replace(no_machine.find("\"a\""), 3, "\"\"");
  EXPECT_NE(refusal(manifest_with(no_machine)).find("\"machine\" must be a non-empty string"), std::string::npos);
  EXPECT_NE(refusal(R"({"schema": "gpupack-runs", "version": 1, "runs": [)" + kRun + "]}").find("\"profiles\""),
            std::string::npos);
}

}  // namespace
}  // namespace gpupack::verify
