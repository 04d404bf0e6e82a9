#include "mps/mps_daemon.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakes/memory_filesystem.hpp"
#include "mps_fixture.hpp"

namespace gpupack {
namespace {

using testing::MpsFixture;

std::string error_of(MpsDaemon& d) {
  try {
    d.start();
  } catch (const MpsError& e) {
    return e.what();
  }
  return "";
}

TEST_F(MpsFixture, StartsOnPrivateDirectoriesAndQuits) {
  MpsDaemon d(runner, fs, clock, options());
  EXPECT_FALSE(d.is_running());
  d.start();
  EXPECT_TRUE(d.is_running());
  ASSERT_TRUE(d.pid());
  EXPECT_EQ(fs.stat(paths().pipe_dir).mode, 0700u);
  EXPECT_EQ(fs.stat(paths().log_dir).mode, 0700u);
  const int pid = *d.pid();
  EXPECT_TRUE(d.quit());
  EXPECT_FALSE(d.is_running());
  EXPECT_FALSE(runner.is_alive(pid));
  EXPECT_TRUE(d.quit());  // nothing to stop is not a failure
}

TEST_F(MpsFixture, MissingControlProgramIsAClearError) {
  auto o = options();
  o.binary = tmp / "no-such-mps-control";
  MpsDaemon d(runner, fs, clock, o);
  EXPECT_NE(error_of(d).find("cannot find the MPS control program"), std::string::npos);
}

TEST_F(MpsFixture, RefusesAPipeDirectoryWhereADaemonAlreadyRuns) {
  MpsDaemon first(runner, fs, clock, options());
  first.start();
  first.unlock();  // as after `gpupack mps up` has exited
  MpsDaemon second(runner, fs, clock, options());
  EXPECT_NE(error_of(second).find("already runs"), std::string::npos);
  EXPECT_TRUE(first.quit());
}

// Issue 38 item 1: `pipe -> /root-owned/dir` passed the ownership check (stat followed the link) and the
// directory was chmod 0700 and chowned to `uid`; `pipe/gpupack.lock -> /etc/nologin` made the next start
// create that file as root. Both are refused; neither target is touched.
TEST_F(MpsFixture, RefusesPlantedLinksForThePipeDirectoryAndItsLock) {
  fs.make_dirs(tmp / "root-owned", 0755);
  ASSERT_EQ(::symlink((tmp / "root-owned").c_str(), paths().pipe_dir.c_str()), 0);
  auto o = options();
  o.owner_uid = fs.effective_uid();
  MpsDaemon linked(runner, fs, clock, o);
  EXPECT_NE(error_of(linked).find("MPS pipe directory " + paths().pipe_dir + " is a symbolic link"), std::string::npos)
      << error_of(linked);
  EXPECT_EQ(fs.stat(tmp / "root-owned").mode, 0755u);
  EXPECT_THROW(linked.lock(), MpsError);
  ::unlink(paths().pipe_dir.c_str());

  fs.make_dirs(paths().pipe_dir, 0700);
  ASSERT_EQ(::symlink((tmp / "nologin").c_str(), (paths().pipe_dir + "/" + MpsDaemon::kLockFile).c_str()), 0);
  MpsDaemon locked(runner, fs, clock, options());
  EXPECT_NE(error_of(locked).find("is a symbolic link"), std::string::npos) << error_of(locked);
  EXPECT_FALSE(fs.link_stat(tmp / "nologin").exists);
  EXPECT_FALSE(locked.is_running());
}

// The same checks through the Env seam's in-memory file system: a linked pipe or log directory is refused
// before anything is changed, whoever owns what it points to.
TEST(MpsDaemonOnTheFake, RefusesLinkedDirectoriesBeforeChangingAnything) {
  testing::MemoryFilesystem mem;
  mem.uid = 0;
  mem.make_dirs("/root-owned", 0755);
  mem.make_dirs("/mps/GPU-1/log", 0700);
  mem.symlinks["/mps/GPU-1/pipe"] = "/root-owned";
  PosixProcessRunner runner;
  SystemClock clock;
  MpsDaemonOptions o;
  o.paths = {"/mps/GPU-1/pipe", "/mps/GPU-1/log"};
  o.owner_uid = 1000;
  MpsDaemon d(runner, mem, clock, o);
  try {
    d.lock();
    ADD_FAILURE() << "a linked pipe directory was accepted";
  } catch (const MpsError& e) {
    EXPECT_NE(std::string(e.what()).find("MPS pipe directory /mps/GPU-1/pipe is a symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_EQ(mem.dirs["/root-owned"], 0755u);
  EXPECT_FALSE(mem.owner_of.count("/root-owned"));
  EXPECT_FALSE(mem.files.count("/root-owned/gpupack.lock"));
}

// A FIFO planted as the pid file in a pipe directory the configured `uid` owns must not block the agent.
TEST_F(MpsFixture, AFifoAsThePidFileDoesNotBlock) {
  fs.make_dirs(paths().pipe_dir, 0700);
  ASSERT_EQ(::mkfifo((paths().pipe_dir + "/" + MpsDaemon::kPidFile).c_str(), 0600), 0);
  MpsDaemon d(runner, fs, clock, options());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(d.pid());  // read without blocking: no pid, not a hang
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ::unlink((paths().pipe_dir + "/" + MpsDaemon::kPidFile).c_str());  // the fake control program would block on it
}

TEST_F(MpsFixture, TwoManagersNeverShareAPipeDirectory) {
  MpsDaemon first(runner, fs, clock, options());
  first.start();
  MpsDaemon second(runner, fs, clock, options());
  EXPECT_NE(error_of(second).find("another gpupack process manages"), std::string::npos);
  EXPECT_TRUE(first.quit());
}

TEST_F(MpsFixture, ClearsAStalePidFileLeftByAKilledDaemon) {
  MpsDaemon d(runner, fs, clock, options());
  d.start();
  const int pid = *d.pid();
  runner.send_signal(pid, SIGKILL);
  ASSERT_TRUE(eventually([&] { return !runner.is_alive(pid); }));
  EXPECT_TRUE(fs.read_file(paths().pipe_dir + "/" + MpsDaemon::kPidFile));  // left behind
  EXPECT_FALSE(d.is_running());
  d.start();
  EXPECT_TRUE(d.is_running());
  EXPECT_NE(*d.pid(), pid);
  EXPECT_TRUE(d.quit());
}

TEST_F(MpsFixture, RefusesADirectoryOwnedBySomeoneElse) {
  fs.make_dirs(paths().pipe_dir, 0700);
  fs.owner_of[paths().pipe_dir] = fs.effective_uid() + 1;
  MpsDaemon d(runner, fs, clock, options());
  const std::string e = error_of(d);
  EXPECT_NE(e.find("is owned by uid"), std::string::npos) << e;
  EXPECT_NE(e.find(paths().pipe_dir), std::string::npos) << e;
}

TEST_F(MpsFixture, RefusesADirectoryItCannotWrite) {
  fs.make_dirs(paths().log_dir, 0700);
  fs.read_only.insert(paths().log_dir);
  MpsDaemon d(runner, fs, clock, options());
  EXPECT_NE(error_of(d).find("is not writable"), std::string::npos);
}

TEST_F(MpsFixture, TightensAnOpenDirectoryOfOurOwnTo0700) {
  fs.make_dirs(paths().pipe_dir, 0755);
  MpsDaemon d(runner, fs, clock, options());
  d.start();
  EXPECT_EQ(fs.stat(paths().pipe_dir).mode, 0700u);
  EXPECT_TRUE(d.quit());
}

TEST_F(MpsFixture, ReportsAFailedDaemonStart) {
  fs.make_dirs(paths().pipe_dir, 0700);
  fs.write_file(paths().pipe_dir + "/fake-fail", "-d\n");
  MpsDaemon d(runner, fs, clock, options());
  const std::string e = error_of(d);
  EXPECT_NE(e.find("-d' failed"), std::string::npos) << e;
  EXPECT_NE(e.find("scripted failure"), std::string::npos) << e;
}

TEST_F(MpsFixture, PassesTheVisibleDevicesToTheDaemon) {
  // The fake records nothing about CUDA_VISIBLE_DEVICES; a wrapper script shows what the daemon got.
  const std::string wrapper = tmp / "wrapper.sh";
  fs.write_file(wrapper, "#!/bin/sh\n[ \"$1\" = -d ] && echo \"$CUDA_VISIBLE_DEVICES\" > \"$CUDA_MPS_LOG_DIRECTORY/visible\"\nexec " +
                             std::string(FAKE_MPS_CONTROL) + " \"$@\"\n");
  fs.set_mode(wrapper, 0755);
  auto o = options();
  o.binary = wrapper;
  o.visible_devices = {"GPU-aaa", "GPU-bbb"};
  MpsDaemon d(runner, fs, clock, o);
  d.start();
  EXPECT_EQ(fs.read_file(paths().log_dir + "/visible"), "GPU-aaa,GPU-bbb\n");
  EXPECT_TRUE(d.quit());
}

}  // namespace
}  // namespace gpupack
