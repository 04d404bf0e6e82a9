// bench's private MPS daemon against the fake control program: start, failure, quit on error and on
// Ctrl-C (an interrupt seen while waiting on workers).
#include "bench/mps_session.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bench/child_group.hpp"
#include "bench/interrupt.hpp"
#include "fakes/memory_filesystem.hpp"
#include "fakes/temp_dir.hpp"

namespace gpupack::bench {
namespace {

MpsSessionOptions fake_options(const std::string& base) {
  MpsSessionOptions o;
  o.control_binary = FAKE_MPS_CONTROL;
  o.temp_base = base;
  o.check_foreign_daemons = false;
  return o;
}

int daemon_pid(const MpsSession& s) {
  std::ifstream in(s.paths().pipe_dir + "/nvidia-cuda-mps-control.pid");
  int pid = 0;
  in >> pid;
  return pid;
}

bool alive(int pid) { return pid > 0 && ::kill(pid, 0) == 0; }

// The fake daemon is a child of the control program, reparented; give it a moment to be reaped.
bool gone_soon(int pid) {
  for (int i = 0; i < 100 && alive(pid); ++i) ::usleep(20000);
  return !alive(pid);
}

class MpsSessionTest : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("FAKE_MPS_FAIL");
    clear_interrupt();
  }
  gpupack::testing::TempDir tmp;
  SystemEnv system;  // real files and clock: the fake control program is a real process
};

TEST_F(MpsSessionTest, StartsOnPrivateDirectoriesAndQuits) {
  std::string why;
  auto s = MpsSession::start(fake_options(tmp.path()), system.env(), why);
  ASSERT_TRUE(s) << why;
  const auto env = s->client_environment();
  EXPECT_EQ(env.at("CUDA_MPS_PIPE_DIRECTORY").rfind(tmp.path() + "/gpupack-bench-mps-", 0), 0u);
  EXPECT_EQ(std::filesystem::status(s->paths().pipe_dir).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_all);
  const int pid = daemon_pid(*s);
  ASSERT_TRUE(alive(pid));
  EXPECT_TRUE(s->quit());
  EXPECT_TRUE(gone_soon(pid));
  EXPECT_FALSE(std::filesystem::exists(s->paths().pipe_dir));  // the temporary directory is removed
  EXPECT_TRUE(s->quit());                                      // idempotent
}

TEST_F(MpsSessionTest, FailedStartIsReportedWithTheReason) {
  ::setenv("FAKE_MPS_FAIL", "-d", 1);
  std::string why;
  EXPECT_FALSE(MpsSession::start(fake_options(tmp.path()), system.env(), why));
  EXPECT_NE(why.find("-d' failed"), std::string::npos) << why;
}

TEST_F(MpsSessionTest, MissingBinaryIsReportedWithTheReason) {
  MpsSessionOptions o = fake_options(tmp.path());
  o.control_binary = tmp / "no-such-mps-control";
  std::string why;
  EXPECT_FALSE(MpsSession::start(o, system.env(), why));
  EXPECT_NE(why.find("cannot find"), std::string::npos) << why;
}

TEST_F(MpsSessionTest, QuitsWhenAnExperimentThrows) {
  int pid = 0;
  std::string pipe;
  try {
    std::string why;
    auto s = MpsSession::start(fake_options(tmp.path()), system.env(), why);
    ASSERT_TRUE(s) << why;
    pid = daemon_pid(*s);
    pipe = s->paths().pipe_dir;
    throw std::runtime_error("experiment failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(gone_soon(pid));
  EXPECT_FALSE(std::filesystem::exists(pipe));
}

TEST_F(MpsSessionTest, QuitsAndEndsWorkersOnInterrupt) {
  int pid = 0;
  std::string why;
  EXPECT_THROW(
      {
        auto s = MpsSession::start(fake_options(tmp.path()), system.env(), why);
        ASSERT_TRUE(s) << why;
        pid = daemon_pid(*s);
        ChildGroup workers({ChildSpec{{"/bin/sleep", "30"}, {}, {}}});
        request_interrupt_for_test(SIGINT);  // what the SIGINT handler does
        workers.wait_exit(std::chrono::seconds(30));
      },
      Interrupted);
  EXPECT_TRUE(gone_soon(pid));
}

// Another MPS daemon owns the GPU while it runs; a zombie (a daemon that quit after its parent was gone,
// under a container init that never reaps) owns nothing.
TEST(ForeignMpsProcesses, RunningDaemonsAndServersButNoZombies) {
  gpupack::testing::MemoryFilesystem fs;
  fs.files["/proc/100/comm"] = "nvidia-cuda-mps\n";
  fs.files["/proc/100/stat"] = "100 (nvidia-cuda-mps) S 1 100 100 0 -1";
  fs.files["/proc/200/comm"] = "nvidia-cuda-mps\n";
  fs.files["/proc/200/stat"] = "200 (nvidia-cuda-mps) Z 1 200 200 0 -1";
  fs.files["/proc/300/comm"] = "bash\n";
  fs.files["/proc/300/stat"] = "300 (bash) S 1 300 300 0 -1";
  fs.files["/proc/40/comm"] = "nvidia-cuda-mps\n";  // a server whose stat could not be read: counted
  EXPECT_EQ(foreign_mps_processes(fs), (std::vector<int>{40, 100}));
}

}  // namespace
}  // namespace gpupack::bench
