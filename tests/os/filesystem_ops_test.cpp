// The Filesystem operations the writers and readers above os/ need (rename, remove_all, temporary
// directories, listing, reading at an offset, absolute paths): the real file system and the in-memory
// fake give the same answers, so a test on the fake says something about the real thing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

#include "fakes/memory_filesystem.hpp"
#include "fakes/temp_dir.hpp"
#include "os/filesystem.hpp"

namespace gpupack {
namespace {

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

void expect_tree_operations(Filesystem& fs, const std::string& root) {
  const std::string dir = fs.make_temp_dir(root, "ops");
  EXPECT_EQ(dir.rfind(root + "/ops-", 0), 0u) << dir;
  EXPECT_TRUE(fs.stat(dir).is_dir);
  EXPECT_EQ(fs.stat(dir).mode, 0700u);
  fs.make_dirs(dir + "/a/b", 0755);
  fs.write_file(dir + "/a/b/f", "hello");
  fs.write_file(dir + "/g", "g");
  EXPECT_EQ(sorted(fs.list_dir(dir)), (std::vector<std::string>{"a", "g"}));  // no temporary file left
  EXPECT_TRUE(fs.list_dir(dir + "/missing").empty());

  fs.rename(dir + "/a", dir + "/c");
  EXPECT_FALSE(fs.stat(dir + "/a").exists);
  EXPECT_EQ(fs.read_file(dir + "/c/b/f"), "hello");
  fs.rename(dir + "/g", dir + "/c/b/f");  // replaces a file
  EXPECT_EQ(fs.read_file(dir + "/c/b/f"), "g");
  try {
    fs.rename(dir + "/none", dir + "/x");
    ADD_FAILURE() << "renaming a missing file did not throw";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ENOENT);
  }

  fs.remove_all(dir + "/c");
  EXPECT_FALSE(fs.stat(dir + "/c").exists);
  EXPECT_FALSE(fs.stat(dir + "/c/b/f").exists);
  fs.remove_all(dir + "/c");  // nothing there: no error
  fs.remove_all(dir);
  EXPECT_FALSE(fs.stat(dir).exists);
}

void expect_reads_at_offsets(Filesystem& fs, const std::string& dir) {
  fs.write_file(dir + "/report", "0123456789");
  EXPECT_EQ(fs.read_at(dir + "/report", 0, 4), "0123");
  EXPECT_EQ(fs.read_at(dir + "/report", 8, 4), "89");
  EXPECT_EQ(fs.read_at(dir + "/report", 10, 4), "");
  EXPECT_FALSE(fs.read_at(dir + "/none", 0, 4));
}

TEST(FilesystemOps, RealTreeOperations) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  expect_tree_operations(fs, tmp.path());
}

TEST(FilesystemOps, InMemoryTreeOperations) {
  testing::MemoryFilesystem fs;
  fs.make_dirs("/tmp", 01777);
  expect_tree_operations(fs, "/tmp");
}

TEST(FilesystemOps, ReadsAtAnOffset) {
  testing::TempDir tmp;
  PosixFilesystem real;
  expect_reads_at_offsets(real, tmp.path());
  testing::MemoryFilesystem fake;
  expect_reads_at_offsets(fake, "/tmp");
}

TEST(FilesystemOps, AbsolutePathsAndSockets) {
  PosixFilesystem real;
  EXPECT_EQ(real.absolute("/etc/x"), "/etc/x");
  EXPECT_EQ(real.absolute("x").front(), '/');
  EXPECT_FALSE(real.stat("/").is_socket);
  testing::MemoryFilesystem fake;
  EXPECT_EQ(fake.absolute("x"), fake.cwd + "/x");
  fake.sockets.insert("/run/kubelet.sock");
  EXPECT_TRUE(fake.stat("/run/kubelet.sock").is_socket);
}

TEST(FilesystemOps, AFailedWriteSaysWhyWithItsErrno) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  try {
    fs.write_file(tmp / "missing-dir/f", "x");
    ADD_FAILURE() << "writing into a missing directory did not throw";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ENOENT);
  }
}

TEST(FilesystemOps, ADeviceIsWrittenInPlaceNotReplaced) {
  PosixFilesystem fs;
  fs.write_file("/dev/null", "discarded");
  const FileInfo info = fs.stat("/dev/null");
  EXPECT_TRUE(info.exists);
  EXPECT_FALSE(info.is_dir);
  EXPECT_EQ(fs.read_file("/dev/null"), "");  // still the device, not a file holding the text
}

}  // namespace
}  // namespace gpupack
