// `gpupack plan` progress on stderr: silent for the first second and off a terminal, one line rewritten
// in place after that, erased at the end. A fake clock: no test waits.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/plan_progress.hpp"
#include "fakes/fake_clock.hpp"

namespace gpupack {
namespace {

using StepClock = testing::FakeClock;

TEST(PlanProgress, SilentDuringTheFirstSecond) {
  StepClock clock;
  std::ostringstream err;
  PlanProgress progress(err, clock, true);
  clock.sleep_for(std::chrono::milliseconds(999));
  progress.step("mode mps", 3, 6);
  progress.finish();
  EXPECT_EQ(err.str(), "");
}

TEST(PlanProgress, OneLineRewrittenInPlaceThenErased) {
  StepClock clock;
  std::ostringstream err;
  PlanProgress progress(err, clock, true);
  clock.sleep_for(std::chrono::milliseconds(1250));
  progress.step("mode mig+time-slicing", 5, 6);
  EXPECT_EQ(err.str(), "\rgpupack plan: mode mig+time-slicing (5 of 6 plans), 1.2 s");
  err.str("");
  clock.sleep_for(std::chrono::milliseconds(500));
  progress.step("mode mig", 6, 13);
  // The shorter line covers the rest of the longer one.
  const std::string line = "gpupack plan: mode mig (6 of 13 plans), 1.8 s";
  const std::string previous = "gpupack plan: mode mig+time-slicing (5 of 6 plans), 1.2 s";
  EXPECT_EQ(err.str(), "\r" + line + std::string(previous.size() - line.size(), ' '));
  err.str("");
  progress.finish();
  EXPECT_EQ(err.str(), "\r" + std::string(line.size(), ' ') + "\r");
}

TEST(PlanProgress, NothingWhenStderrIsNotATerminal) {
  StepClock clock;
  std::ostringstream err;
  PlanProgress progress(err, clock, false);
  clock.sleep_for(std::chrono::milliseconds(5000));
  progress.step("mode mps", 3, 6);
  progress.finish();
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace gpupack
