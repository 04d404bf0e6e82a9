// The admission book with real files and real flock: exactly `slots` holders at once, counted from
// /proc/locks without taking anything, and a SIGKILLed holder's slot free again.
#include "agent/admission_slots.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

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
