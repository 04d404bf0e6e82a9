// Issue 38: what a root daemon must not do through paths another user can plant things at. The real file
// system as the current user, with links and FIFOs planted in a temporary directory; the trusted-directory
// check on the real file system and through the in-memory fake.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <functional>

#include "fakes/memory_filesystem.hpp"
#include "fakes/temp_dir.hpp"
#include "os/filesystem.hpp"
#include "os/process_runner.hpp"
#include "os/trusted_directory.hpp"

namespace gpupack {
namespace {

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

int errno_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const FileError& e) {
    return e.error();
  }
  return 0;
}

TEST(HardenedFilesystem, ChmodAndChownNeverFollowAPlantedLink) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  fs.write_file(tmp / "secret", "key\n");
  ASSERT_EQ(::chmod((tmp / "secret").c_str(), 0600), 0);
  ASSERT_EQ(::symlink((tmp / "secret").c_str(), (tmp / "slot-1").c_str()), 0);
  EXPECT_EQ(errno_of([&] { fs.set_mode(tmp / "slot-1", 0644); }), ELOOP);
  EXPECT_EQ(mode_of(tmp / "secret"), 0600u);  // not made world-readable
  EXPECT_EQ(errno_of([&] { fs.set_owner(tmp / "slot-1", ::geteuid(), ::getegid()); }), ELOOP);
  // A directory link too (pipe -> /root-owned/dir).
  fs.make_dirs(tmp / "private", 0711);
  ASSERT_EQ(::symlink((tmp / "private").c_str(), (tmp / "pipe").c_str()), 0);
  EXPECT_EQ(errno_of([&] { fs.set_mode(tmp / "pipe", 0700); }), ELOOP);
  EXPECT_EQ(mode_of(tmp / "private"), 0711u);
  EXPECT_TRUE(fs.link_stat(tmp / "pipe").is_symlink);
  EXPECT_FALSE(fs.stat(tmp / "pipe").is_symlink);
  // The file itself, a directory and a socket still change (the socket through an O_PATH descriptor).
  fs.set_mode(tmp / "secret", 0640);
  EXPECT_EQ(mode_of(tmp / "secret"), 0640u);
  fs.set_mode(tmp / "private", 0700);
  EXPECT_EQ(mode_of(tmp / "private"), 0700u);
  fs.set_owner(tmp / "secret", ::geteuid(), ::getegid());
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string sock_path = tmp / "plugin.sock";
  ASSERT_LT(sock_path.size(), sizeof addr.sun_path);
  sock_path.copy(addr.sun_path, sock_path.size());
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  fs.set_mode(sock_path, 0700);
  EXPECT_EQ(mode_of(sock_path), 0700u);
  ::close(sock);
}

TEST(HardenedFilesystem, LocksAreNeverTakenThroughALinkOrOnAFifo) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  // pipe/gpupack.lock -> /etc/nologin made the next start create that file as root.
  ASSERT_EQ(::symlink((tmp / "nologin").c_str(), (tmp / "gpupack.lock").c_str()), 0);
  EXPECT_EQ(errno_of([&] { fs.try_lock(tmp / "gpupack.lock"); }), ELOOP);
  EXPECT_FALSE(fs.stat(tmp / "nologin").exists);
  fs.write_file(tmp / "target", "");
  ASSERT_EQ(::symlink((tmp / "target").c_str(), (tmp / "slot-0").c_str()), 0);
  EXPECT_EQ(errno_of([&] { fs.try_lock(tmp / "slot-0"); }), ELOOP);
  ASSERT_EQ(::mkfifo((tmp / "fifo").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(errno_of([&] { fs.try_lock(tmp / "fifo"); }), EINVAL);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(fs.try_lock(tmp / "plain"));  // a new lock file is still created
}

TEST(HardenedFilesystem, RegularReadsRefuseFifosWithoutBlocking) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  ASSERT_EQ(::mkfifo((tmp / "node.yaml").c_str(), 0600), 0);
  const BoundedRead fifo = fs.read_regular_bounded(tmp / "node.yaml", 100);  // would block in open() for good
  EXPECT_TRUE(fifo.not_regular);
  EXPECT_FALSE(fifo.text);
  EXPECT_TRUE(fs.read_regular_bounded("/dev/zero", 100).not_regular);
  EXPECT_TRUE(fs.read_regular_bounded(tmp.path(), 100).not_regular);
  fs.write_file(tmp / "ok.yaml", std::string(300, 'x'));
  const BoundedRead ok = fs.read_regular_bounded(tmp / "ok.yaml", 100);
  ASSERT_TRUE(ok.text);
  EXPECT_EQ(ok.text->size(), 101u);  // one byte past the limit says "larger"
  EXPECT_EQ(fs.read_regular_bounded(tmp / "missing", 100).error, ENOENT);
}

TEST(HardenedFilesystem, AnInheritedLockLivesAsLongAsTheChild) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  PosixProcessRunner runner;
  auto lock = fs.try_lock(tmp / "slot-0");
  ASSERT_TRUE(lock);
  ASSERT_GE(lock->descriptor(), 0);
  ProcessSpec spec{{"sleep", "30"}, {}, "", {}, {lock->descriptor()}};
  auto child = runner.spawn(spec);
  lock.reset();  // the wrapper's copy is gone (as after a SIGKILL of gpupack run)
  EXPECT_FALSE(fs.try_lock(tmp / "slot-0"));  // the child holds it
  child->signal(SIGKILL);
  child->wait();
  EXPECT_TRUE(fs.try_lock(tmp / "slot-0"));
  // Without inheritance the child holds nothing: the descriptor is close-on-exec.
  lock = fs.try_lock(tmp / "slot-0");
  auto plain = runner.spawn({{"sleep", "30"}, {}, "", {}, {}});
  lock.reset();
  EXPECT_TRUE(fs.try_lock(tmp / "slot-0"));
  plain->signal(SIGKILL);
  plain->wait();
}

TEST(TrustedDirectory, RefusesADirectoryOrParentWritableByOthersOnTheRealFileSystem) {
  testing::TempDir tmp;  // 0700 under /tmp (1777, sticky): trusted
  PosixFilesystem fs;
  fs.make_dirs(tmp / "a/mps", 0755);
  EXPECT_NO_THROW(check_trusted_directory(fs, tmp / "a/mps"));
  ASSERT_EQ(::chmod((tmp / "a/mps").c_str(), 0777), 0);
  EXPECT_EQ(errno_of([&] { check_trusted_directory(fs, tmp / "a/mps"); }), EPERM);
  ASSERT_EQ(::chmod((tmp / "a/mps").c_str(), 01777), 0);  // sticky is no excuse for the directory itself
  EXPECT_EQ(errno_of([&] { check_trusted_directory(fs, tmp / "a/mps"); }), EPERM);
  ASSERT_EQ(::chmod((tmp / "a/mps").c_str(), 0755), 0);
  ASSERT_EQ(::chmod((tmp / "a").c_str(), 0777), 0);  // a parent anyone can write: mps could be swapped
  try {
    check_trusted_directory(fs, tmp / "a/mps");
    ADD_FAILURE() << "a world-writable parent passed";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("its parent " + tmp / "a" + " has mode 0777"), std::string::npos)
        << e.what();
  }
  ASSERT_EQ(::chmod((tmp / "a").c_str(), 01777), 0);  // a sticky parent (as /tmp) is fine
  EXPECT_NO_THROW(check_trusted_directory(fs, tmp / "a/mps"));
  // Reached through a link: the directories the link leads through are checked.
  ASSERT_EQ(::chmod((tmp / "a").c_str(), 0777), 0);
  ASSERT_EQ(::symlink((tmp / "a/mps").c_str(), (tmp / "link").c_str()), 0);
  EXPECT_EQ(errno_of([&] { check_trusted_directory(fs, tmp / "link"); }), EPERM);
  EXPECT_EQ(errno_of([&] { check_trusted_directory(fs, tmp / "missing"); }), ENOENT);
}

TEST(TrustedDirectory, RefusesAnotherOwnerThroughTheFake) {
  testing::MemoryFilesystem fs;
  fs.uid = 0;
  fs.make_dirs("/run/gpupack/mps", 0755);
  EXPECT_NO_THROW(check_trusted_directory(fs, "/run/gpupack/mps"));
  fs.owner_of["/run/gpupack"] = 1000;
  try {
    check_trusted_directory(fs, "/run/gpupack/mps");
    ADD_FAILURE() << "a parent owned by uid 1000 passed";
  } catch (const FileError& e) {
    EXPECT_NE(
        std::string(e.what()).find("its parent /run/gpupack is owned by uid 1000; only root may own it"),
        std::string::npos)
        << e.what();
  }
  fs.owner_of.erase("/run/gpupack");
  fs.dirs["/run/gpupack/mps"] = 0775;  // group-writable, group root (the fake's gid): allowed
  EXPECT_NO_THROW(check_trusted_directory(fs, "/run/gpupack/mps"));
  fs.dirs["/run/gpupack/mps"] = 0757;
  EXPECT_EQ(errno_of([&] { check_trusted_directory(fs, "/run/gpupack/mps"); }), EPERM);
  // A link is resolved: its target's chain decides.
  fs.dirs["/run/gpupack/mps"] = 0755;
  fs.make_dirs("/srv/open", 0777);
  fs.make_dirs("/srv/open/mps", 0755);
  fs.symlinks["/run/gpupack/via-link"] = "/srv/open/mps";
  EXPECT_EQ(errno_of([&] { check_trusted_directory(fs, "/run/gpupack/via-link"); }), EPERM);
}

}  // namespace
}  // namespace gpupack
