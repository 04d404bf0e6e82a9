// The admission book with real files and real flock: exactly `slots` holders at once, counted from
// /proc/locks without taking anything, and a SIGKILLed holder's slot free again.
#include "agent/admission_slots.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "fakes/memory_filesystem.hpp"
#include "fakes/temp_dir.hpp"

namespace gpupack {
namespace {

std::string proc_locks(const Filesystem& fs) { return fs.read_file("/proc/locks").value_or(""); }

TEST(AdmissionSlots, AdmitExactlyTheirNumberAndCountHoldersWithoutLocking) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  AdmissionSlots slots(fs, tmp / "clients", 3);
  slots.prepare();
  EXPECT_EQ(fs.stat(tmp / "clients").mode, 0755u);
  EXPECT_EQ(fs.stat(tmp / "clients/slot-2").mode, 0644u);
  std::vector<std::unique_ptr<FileLock>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(slots.take());
    ASSERT_TRUE(held.back()) << "slot " << i;
  }
  EXPECT_FALSE(slots.take());
  EXPECT_EQ(slots.held(proc_locks(fs)), 3);
  EXPECT_EQ(slots.held(proc_locks(fs)), 3);  // counting took nothing
  held.erase(held.begin());
  EXPECT_EQ(slots.held(proc_locks(fs)), 2);
  EXPECT_TRUE(slots.take());  // released at once: the temporary goes out of scope
  EXPECT_EQ(AdmissionSlots(fs, tmp / "clients", 5).held(proc_locks(fs)), 2);  // more slots after a reload
}

TEST(AdmissionSlots, ASigkilledHolderFreesItsSlot) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  AdmissionSlots slots(fs, tmp / "clients", 1);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto lock = slots.take();
    const char ok = lock ? '1' : '0';
    if (::write(ready[1], &ok, 1) != 1) ::_exit(1);
    for (;;) ::pause();
  }
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  ASSERT_EQ(ok, '1');
  EXPECT_FALSE(slots.take());
  EXPECT_EQ(slots.held(proc_locks(fs)), 1);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(slots.held(proc_locks(fs)), 0);
  EXPECT_TRUE(slots.take());
  ::close(ready[0]);
  ::close(ready[1]);
}

// Issue 38 item 1: a planted `clients/slot-N -> /some/secret` made the agent (root) chmod the target 0644
// or create it. The slots refuse links and never touch what they point to.
TEST(AdmissionSlots, RefusePlantedLinksOnTheRealFileSystem) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  fs.write_file(tmp / "secret", "key\n");
  ASSERT_EQ(::chmod((tmp / "secret").c_str(), 0600), 0);
  fs.make_dirs(tmp / "clients", 0755);
  ASSERT_EQ(::symlink((tmp / "secret").c_str(), (tmp / "clients/slot-1").c_str()), 0);
  ASSERT_EQ(::symlink((tmp / "created").c_str(), (tmp / "clients/slot-2").c_str()), 0);
  AdmissionSlots slots(fs, tmp / "clients", 3);
  try {
    slots.prepare();
    ADD_FAILURE() << "a planted slot link was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("slot-1 is a symbolic link; remove it"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fs.stat(tmp / "secret").mode, 0600u);
  ::unlink((tmp / "clients/slot-1").c_str());
  EXPECT_THROW(slots.prepare(), std::runtime_error);
  EXPECT_FALSE(fs.link_stat(tmp / "created").exists);  // never created through the link
  // A link is never taken nor counted: the link to a held file elsewhere counts nothing.
  auto elsewhere = fs.try_lock(tmp / "created");
  EXPECT_EQ(slots.held(proc_locks(fs)), 0);
  EXPECT_TRUE(slots.take());  // slot-0, a real file
  // The clients directory itself as a link (to a directory the user chose).
  fs.make_dirs(tmp / "other", 0700);
  ASSERT_EQ(::symlink((tmp / "other").c_str(), (tmp / "clients2").c_str()), 0);
  EXPECT_THROW(AdmissionSlots(fs, tmp / "clients2", 2).prepare(), std::runtime_error);
  EXPECT_EQ(fs.stat(tmp / "other").mode, 0700u);
}

// The same through the Env seam's in-memory file system (the agent's code path without a temp dir).
TEST(AdmissionSlots, RefusePlantedLinksThroughTheFake) {
  testing::MemoryFilesystem fs;
  fs.make_dirs("/mps/GPU-1/clients", 0755);
  fs.make_dirs("/root/.ssh", 0700);
  fs.symlinks["/mps/GPU-1/clients/slot-0"] = "/root/.ssh";
  EXPECT_THROW(AdmissionSlots(fs, "/mps/GPU-1/clients", 2).prepare(), std::runtime_error);
  EXPECT_EQ(fs.dirs["/root/.ssh"], 0700u);
  fs.symlinks.clear();
  fs.symlinks["/mps/GPU-2/clients"] = "/root/.ssh";
  EXPECT_THROW(AdmissionSlots(fs, "/mps/GPU-2/clients", 2).prepare(), std::runtime_error);
  EXPECT_EQ(fs.dirs["/root/.ssh"], 0700u);
  AdmissionSlots(fs, "/mps/GPU-1/clients", 2).prepare();
  EXPECT_TRUE(fs.files.count("/mps/GPU-1/clients/slot-1"));
}

// Issue 38 item 13: a reload from clients 6 to 2 with 6 running exported admitted = 2 (only slots 0..1
// were counted). Every held slot file counts, and nobody new is admitted until fewer than 2 hold one.
TEST(AdmissionSlots, HoldersAboveALoweredLimitCountAndBlockNewOnes) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  std::vector<std::unique_ptr<FileLock>> held;
  for (int i = 0; i < 6; ++i) {
    held.push_back(AdmissionSlots(fs, tmp / "clients", 6).take());
    ASSERT_TRUE(held.back()) << i;
  }
  AdmissionSlots lowered(fs, tmp / "clients", 2);
  EXPECT_EQ(lowered.held(proc_locks(fs)), 6);
  EXPECT_FALSE(lowered.take());
  for (int i = 0; i < 4; ++i) held[static_cast<std::size_t>(i)].reset();  // slots 0..3 end; 4 and 5 run on
  EXPECT_EQ(lowered.held(proc_locks(fs)), 2);
  EXPECT_FALSE(lowered.take());  // slot 0 is free, but two clients still run
  held[4].reset();
  EXPECT_EQ(lowered.held(proc_locks(fs)), 1);
  auto again = lowered.take();
  EXPECT_TRUE(again);
  EXPECT_EQ(lowered.held(proc_locks(fs)), 2);
  EXPECT_FALSE(lowered.take());
}

TEST(AdmissionSlots, ReadsFlockEntriesOfProcLocks) {
  const auto locked = flocked_files(
      "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF\n"
      "1: -> FLOCK  ADVISORY  WRITE 4243 fd:01:1234567 0 EOF\n"
      "2: POSIX  ADVISORY  WRITE 99 08:02:77 0 EOF\n"
      "3: OFDLCK ADVISORY  READ  -1 00:05:88 0 EOF\n"
      "4: FLOCK  ADVISORY  WRITE 1 103:0a:42 0 EOF\n"
      "garbage\n");
  EXPECT_EQ(locked, (std::set<LockedFile>{{0xfd, 1, 1234567}, {0x103, 0x0a, 42}}));
}

}  // namespace
}  // namespace gpupack
