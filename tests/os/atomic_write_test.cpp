// The atomic writer's temporary file (issue 33, from the hardening of issue 38): created with
// O_EXCL | O_NOFOLLOW under a name no other writer (another thread, another process, a user who can write
// the directory) can predict, so a link or file planted at the old name `.<name>.tmp.<pid>` is never
// followed or overwritten, and writers of one path in one process never share a temporary file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fakes/temp_dir.hpp"
#include "os/filesystem.hpp"

namespace gpupack {
namespace {

std::vector<std::string> temp_names_in(const std::string& dir) {
  std::vector<std::string> out;
  PosixFilesystem fs;
  for (const auto& n : fs.list_dir(dir)) {
    if (n.find(".tmp.") != std::string::npos) out.push_back(n);
  }
  return out;
}

TEST(AtomicWrite, NeverFollowsALinkPlantedAtThePredictableTemporaryName) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  fs.write_file(tmp / "victim", "untouched\n");
  const std::string planted = tmp / (".labels.tmp." + std::to_string(::getpid()));
  ASSERT_EQ(::symlink((tmp / "victim").c_str(), planted.c_str()), 0);
  fs.write_file(tmp / "labels", "a=b\n");
  EXPECT_EQ(fs.read_file(tmp / "labels"), "a=b\n");
  EXPECT_EQ(fs.read_file(tmp / "victim"), "untouched\n");  // the link's target was not written through
  struct stat st {};
  ASSERT_EQ(::lstat(planted.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));  // and the planted link is still what it was
  ASSERT_EQ(::lstat((tmp / "labels").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0644u);
}

TEST(AtomicWrite, ThreadsWritingOnePathNeverShareATemporaryFile) {
  // With one temporary name per process, two threads wrote into the same file: the path could hold one
  // thread's text cut by the other's, or a rename failed because the other had already moved the file.
  testing::TempDir tmp;
  PosixFilesystem fs;
  const std::string path = tmp / "node.yaml";
  std::set<std::string> texts;
  for (int t = 0; t < 8; ++t) {
    texts.insert(std::string(static_cast<size_t>(4096 + t * 512), static_cast<char>('a' + t)));
  }
  std::vector<std::thread> threads;
  std::vector<int> failures(texts.size(), 0);
  int t = 0;
  for (const auto& text : texts) {
    threads.emplace_back([&fs, &path, &text, &failures, t] {
      for (int i = 0; i < 200; ++i) {
        try {
          fs.write_file(path, text);
        } catch (const FileError& e) {
          ++failures[static_cast<size_t>(t)];
          std::cerr << e.what() << "\n";
        }
      }
    });
    ++t;
  }
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
  EXPECT_EQ(texts.count(fs.read_file(path).value_or("")), 1u);  // one writer's text, whole
  EXPECT_EQ(temp_names_in(tmp.path()), std::vector<std::string>{});  // none left behind
}

TEST(AtomicWrite, AFailedRenameLeavesNoTemporaryFile) {
  testing::TempDir tmp;
  PosixFilesystem fs;
  // A directory at the path: the temporary file is written, its rename fails, and it is removed.
  fs.make_dirs(tmp / "cdi.json", 0755);
  EXPECT_THROW(fs.write_file(tmp / "cdi.json", "new\n"), FileError);
  EXPECT_TRUE(fs.list_dir(tmp / "cdi.json").empty());
  EXPECT_EQ(temp_names_in(tmp.path()), std::vector<std::string>{});
}

}  // namespace
}  // namespace gpupack
