#include "mps/mps_control.hpp"

#include <gtest/gtest.h>

#include "mps_fixture.hpp"

namespace gpupack {
namespace {

using testing::MpsFixture;

TEST(MpsReplies, ParsesPidListsAndServerStates) {
  EXPECT_EQ(parse_pid_list("123\n456\n"), (std::vector<int>{123, 456}));
  EXPECT_EQ(parse_pid_list("Server 12 not found"), (std::vector<int>{12}));
  EXPECT_TRUE(parse_pid_list("").empty());
  EXPECT_EQ(parse_server_state("ACTIVE"), MpsServerState::active);
  EXPECT_EQ(parse_server_state("Server 42: FAULT"), MpsServerState::fault);
  EXPECT_EQ(parse_server_state("INITIALIZING"), MpsServerState::initializing);
  EXPECT_EQ(parse_server_state("?"), MpsServerState::unknown);
  EXPECT_STREQ(to_string(MpsServerState::fault), "FAULT");
}

TEST_F(MpsFixture, CommandsWithoutADaemonFailWithTheControlProgramsReason) {
  fs.make_dirs(paths().pipe_dir, 0700);
  const MpsReply r = control().send("get_server_list");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("Cannot find MPS control daemon"), std::string::npos) << r.error;
  EXPECT_THROW(control().server_list(), MpsError);
}

TEST_F(MpsFixture, SpeaksTheProtocolToARunningDaemon) {
  MpsDaemon daemon(runner, fs, clock, options());
  daemon.start();
  const MpsControl c = control();
  EXPECT_TRUE(c.server_list().empty());
  c.set_default_active_thread_percentage(50);
  c.set_default_device_pinned_mem_limit(0, "2G");
  EXPECT_EQ(c.send("get_default_active_thread_percentage").text, "50");
  c.start_server(fs.effective_uid());
  const auto servers = c.server_list();
  ASSERT_EQ(servers.size(), 1u);
  EXPECT_EQ(c.server_status(servers[0]), MpsServerState::active);
  // A client: any live process registered with the fake server.
  auto client = runner.spawn({{"sleep", "20"}, {}, "", {}, {}});
  ASSERT_TRUE(c.send("fake_add_client " + std::to_string(servers[0]) + " " + std::to_string(client->pid())).ok);
  EXPECT_EQ(c.client_list(servers[0]), (std::vector<int>{client->pid()}));
  const auto rows = c.ps();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].pid, client->pid());
  EXPECT_EQ(rows[0].server_pid, servers[0]);
  client->signal(SIGKILL);
  client->wait();
  EXPECT_FALSE(c.send("no_such_command").ok);
  EXPECT_TRUE(daemon.quit());
  EXPECT_FALSE(daemon.is_running());
}

}  // namespace
}  // namespace gpupack
