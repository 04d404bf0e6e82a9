#include "mps/orphaned_daemons.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mps_fixture.hpp"

namespace gpupack::testing {
namespace {

using ::testing::HasSubstr;

// One test for the three cases: the search looks at every fake daemon on this machine, and tests of one
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

  // A daemon that is not a command's own (the node agent's, which serves other programs) is never quit,
  // whoever holds its lock.
  {
    MpsDaemon agent(runner, fs, clock, options());
    agent.start();
  }
  EXPECT_TRUE(quit_orphaned_daemons(runner, fs, clock, FAKE_MPS_CONTROL).empty());
  EXPECT_TRUE(control().send("get_server_list").ok);  // TearDown quits it
}

}  // namespace
}  // namespace gpupack::testing
