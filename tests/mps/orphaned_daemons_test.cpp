#include "mps/orphaned_daemons.hpp"

#include <csignal>
#include <optional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mps_fixture.hpp"

namespace gpupack::testing {
namespace {

using ::testing::HasSubstr;

// One test for the four cases: the search looks at every fake daemon on this machine, and tests of one
// binary may run at once (ctest -j), so a second test could quit this one's orphan first.
TEST_F(MpsFixture, QuitsOnlyTemporaryDaemonsWhoseCommandIsGone) {
  MpsDaemonOptions temporary = options();
  temporary.temporary = true;

  // A command's own daemon while the command runs (it holds the lock): left alone.
  {
    MpsDaemon live(runner, fs, clock, temporary);
    live.start();
    EXPECT_TRUE(quit_orphaned_daemons(runner, fs, clock, FAKE_MPS_CONTROL).empty());
    EXPECT_TRUE(live.is_running());
    // The command is killed: the object (and with it the lock) goes without quit.
  }
  ASSERT_TRUE(control().send("get_server_list").ok);
  const auto lines = quit_orphaned_daemons(runner, fs, clock, FAKE_MPS_CONTROL);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_THAT(lines[0], HasSubstr("quit an MPS daemon left by a gpupack command that was killed (pid "));
  EXPECT_THAT(lines[0], HasSubstr("pipe directory " + paths().pipe_dir + ")"));
  EXPECT_FALSE(control().send("get_server_list").ok);
  EXPECT_FALSE(fs.stat(paths().pipe_dir).exists);
  EXPECT_FALSE(fs.stat(paths().log_dir).exists);

  // A command's daemon whose pipe directory was removed while the command was being killed (seen on the
  // device machine: the test harness removed its temporary directory first): no quit reaches it, so its
  // processes are stopped by signal, found by the mark in their environment.
  std::optional<int> unreachable;
  {
    MpsDaemon killed(runner, fs, clock, temporary);
    killed.start();
    unreachable = killed.pid();
  }
  ASSERT_TRUE(unreachable.has_value());
  fs.remove_all(paths().pipe_dir);
  ASSERT_TRUE(runner.is_alive(*unreachable));
  const auto stopped = quit_orphaned_daemons(runner, fs, clock, FAKE_MPS_CONTROL);
  ASSERT_EQ(stopped.size(), 1u);
  EXPECT_THAT(stopped[0], HasSubstr("stopped an MPS daemon left by a gpupack command that was killed, its pipe directory removed (pid "));
  EXPECT_FALSE(runner.is_alive(*unreachable));
  EXPECT_FALSE(fs.stat(paths().log_dir).exists);

  // A daemon that is not a command's own (the node agent's, which serves other programs) is never quit,
  // whoever holds its lock, nor stopped when its pipe directory is gone.
  std::optional<int> agent_pid;
  {
    MpsDaemon agent(runner, fs, clock, options());
    agent.start();
    agent_pid = agent.pid();
  }
  EXPECT_TRUE(quit_orphaned_daemons(runner, fs, clock, FAKE_MPS_CONTROL).empty());
  EXPECT_TRUE(control().send("get_server_list").ok);
  ASSERT_TRUE(agent_pid.has_value());
  fs.remove_all(paths().pipe_dir);
  EXPECT_TRUE(quit_orphaned_daemons(runner, fs, clock, FAKE_MPS_CONTROL).empty());
  EXPECT_TRUE(runner.is_alive(*agent_pid));
  runner.send_signal(*agent_pid, SIGKILL);  // no pipe is left for TearDown's quit
}

}  // namespace
}  // namespace gpupack::testing
