#include "os/filesystem.hpp"

#include <gtest/gtest.h>

#include "fakes/temp_dir.hpp"

namespace gpupack {
namespace {

TEST(PosixFilesystem, MakesPrivateDirectoriesWithParents) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  fs.make_dirs(tmp / "a/b", 0700);
  const FileInfo info = fs.stat(tmp / "a/b");
  EXPECT_TRUE(info.exists);
  EXPECT_TRUE(info.is_dir);
  EXPECT_EQ(info.mode, 0700u);
  EXPECT_EQ(info.uid, fs.effective_uid());
  EXPECT_FALSE(fs.stat(tmp / "missing").exists);
}

TEST(PosixFilesystem, WritesAtomicallyAndReadsBack) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  fs.write_file(tmp / "f", "one");
  fs.write_file(tmp / "f", "two");
  EXPECT_EQ(fs.read_file(tmp / "f"), "two");
  EXPECT_TRUE(fs.remove(tmp / "f"));
  EXPECT_FALSE(fs.read_file(tmp / "f"));
}

TEST(PosixFilesystem, ALockIsExclusiveUntilReleased) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  auto first = fs.try_lock(tmp / "lock");
  ASSERT_TRUE(first);
  EXPECT_FALSE(fs.try_lock(tmp / "lock"));
  first.reset();
  EXPECT_TRUE(fs.try_lock(tmp / "lock"));
}

}  // namespace
}  // namespace gpupack
