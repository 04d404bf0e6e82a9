#include "os/process_runner.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>

namespace gpupack {
namespace {

TEST(PosixProcessRunner, CapturesOutputAndExitCode) {
  PosixProcessRunner r;
  const auto res = r.run({{"sh", "-c", "echo out; echo err >&2; exit 3"}, {}, "", std::chrono::seconds(20), {}});
  EXPECT_EQ(res.exit_code, 3);
  EXPECT_EQ(res.out, "out\n");
  EXPECT_EQ(res.err, "err\n");
  EXPECT_FALSE(res.timed_out);
}

TEST(PosixProcessRunner, FeedsStdinAndAddsEnvironment) {
  PosixProcessRunner r;
  const auto res = r.run({{"sh", "-c", "cat; echo \"$GPUPACK_TEST_VAR\""}, {{"GPUPACK_TEST_VAR", "v1"}}, "hello\n",
                          std::chrono::seconds(20), {}});
  EXPECT_EQ(res.exit_code, 0);
  EXPECT_EQ(res.out, "hello\nv1\n");
}

TEST(PosixProcessRunner, ArgumentsAreNotInterpretedByAShell) {
  PosixProcessRunner r;
  const auto res = r.run({{"echo", "$HOME;", "*"}, {}, "", std::chrono::seconds(20), {}});
  EXPECT_EQ(res.out, "$HOME; *\n");
}

TEST(PosixProcessRunner, AChildThatDoesNotReadItsInputDoesNotKillUsWithSigpipe) {
  PosixProcessRunner r;
  for (int i = 0; i < 20; ++i) {
    const auto res = r.run({{"true"}, {}, std::string(1 << 20, 'x'), std::chrono::seconds(20), {}});
    EXPECT_EQ(res.exit_code, 0);
  }
}

TEST(PosixProcessRunner, KillsAChildThatRunsPastItsTimeout) {
  PosixProcessRunner r;
  const auto res = r.run({{"sleep", "30"}, {}, "", std::chrono::milliseconds(200), {}});
  EXPECT_TRUE(res.timed_out);
  EXPECT_EQ(res.exit_code, 128 + SIGKILL);
}

TEST(PosixProcessRunner, ReturnsWhenTheDirectChildExitsEvenIfADescendantHoldsThePipes) {
  PosixProcessRunner r;
  const auto res = r.run({{"sh", "-c", "sleep 3 & echo started"}, {}, "", std::chrono::seconds(20), {}});
  EXPECT_FALSE(res.timed_out);
  EXPECT_EQ(res.exit_code, 0);
  EXPECT_EQ(res.out, "started\n");
}

TEST(PosixProcessRunner, MissingProgramIs127WithAReason) {
  PosixProcessRunner r;
  const auto res = r.run({{"/nonexistent/gpupack-nothing"}, {}, "", std::chrono::seconds(5), {}});
  EXPECT_EQ(res.exit_code, 127);
  EXPECT_NE(res.err.find("gpupack-nothing"), std::string::npos);
  EXPECT_FALSE(r.find_program("/nonexistent/gpupack-nothing"));
  EXPECT_TRUE(r.find_program("sh"));
}

TEST(PosixProcessRunner, SpawnedChildCanBeSignalledAndWaitedFor) {
  PosixProcessRunner r;
  auto child = r.spawn({{"sleep", "30"}, {}, "", {}, {}});
  EXPECT_TRUE(r.is_alive(child->pid()));
  EXPECT_FALSE(child->poll());
  child->signal(SIGTERM);
  EXPECT_EQ(child->wait(), 128 + SIGTERM);
  EXPECT_FALSE(r.is_alive(child->pid()));
  auto ok = r.spawn({{"sh", "-c", "exit 7"}, {}, "", {}, {}});
  EXPECT_EQ(ok->wait(), 7);
}

}  // namespace
}  // namespace gpupack
