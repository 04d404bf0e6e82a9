#include "render/tree_writer.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "fakes/memory_filesystem.hpp"

namespace gpupack {

namespace fs = std::filesystem;

namespace {

class TreeWriterTest : public ::testing::Test {
 protected:
  PosixFilesystem files_;
  fs::path root;
  void SetUp() override {
    root = fs::temp_directory_path() / ("gpupack-tree-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root);
  }
  void TearDown() override { fs::remove_all(root); }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(root), fs::directory_iterator()));
  }
};

}  // namespace

TEST_F(TreeWriterTest, WritesFilesWithModes) {
  const FileTree tree{{"README.txt", "hello\n", 0644}, {"mps/node-a/start.sh", "#!/bin/sh\n", 0755}};
  write_tree_atomically(files_, (root / "out").string(), tree, false);
  EXPECT_EQ(read(root / "out/README.txt"), "hello\n");
  struct stat st {};
  ASSERT_EQ(::stat((root / "out/mps/node-a/start.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  ASSERT_EQ(::stat((root / "out/README.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_EQ(entries(), 1u) << "no temporary directory left behind";
}

TEST_F(TreeWriterTest, RefusesExistingDirectoryWithoutForce) {
  fs::create_directories(root / "out");
  std::ofstream(root / "out/keep") << "precious";
  EXPECT_THROW(write_tree_atomically(files_, (root / "out").string(), {{"a", "new", 0644}}, false), InputError);
  EXPECT_EQ(read(root / "out/keep"), "precious");
  write_tree_atomically(files_, (root / "out").string(), {{"a", "new", 0644}}, true);
  EXPECT_FALSE(fs::exists(root / "out/keep"));
  EXPECT_EQ(read(root / "out/a"), "new");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(TreeWriterTest, RejectsUnsafePathsAndWritesNothing) {
  for (const char* bad : {"../escape", "/abs", "a/../../b", "", "a//b/./c"}) {
    EXPECT_THROW(write_tree_atomically(files_, (root / "out").string(), {{"ok", "x", 0644}, {bad, "x", 0644}}, false),
                 InputError)
        << bad;
    EXPECT_FALSE(fs::exists(root / "out"));
  }
  EXPECT_EQ(entries(), 0u);
}

TEST_F(TreeWriterTest, FailureMidWayLeavesNothing) {
  // A file and a directory with the same name cannot both be written: the second write fails.
  const FileTree tree{{"a", "file", 0644}, {"a/b", "under a file", 0644}};
  EXPECT_ANY_THROW(write_tree_atomically(files_, (root / "out").string(), tree, false));
  EXPECT_FALSE(fs::exists(root / "out"));
  EXPECT_EQ(entries(), 0u);
}

TEST_F(TreeWriterTest, MissingParentIsAnInputError) {
  EXPECT_THROW(write_tree_atomically(files_, (root / "no/such/out").string(), {{"a", "x", 0644}}, false), InputError);
}

TEST(TreeWriterInMemory, ReplacesTheDirectoryWholeWithForce) {
  testing::MemoryFilesystem mem;
  mem.make_dirs("/work", 0755);
  mem.write_file("/work/out/keep", "old");
  mem.make_dirs("/work/out", 0755);
  write_tree_atomically(mem, "out", {{"mps/start.sh", "#!/bin/sh\n", 0755}}, true);  // relative to mem.cwd
  EXPECT_FALSE(mem.stat("/work/out/keep").exists);
  EXPECT_EQ(mem.read_file("/work/out/mps/start.sh"), "#!/bin/sh\n");
  EXPECT_EQ(mem.list_dir("/work"), std::vector<std::string>{"out"});  // no staging or old directory left
}

// Issue 32: README and docs write `-o out/`; a trailing slash names the same directory. ".", ".." and "/"
// stay refused (replacing them would replace the working directory or its parents).
TEST_F(TreeWriterTest, TrailingSlashNamesTheDirectory) {
  write_tree_atomically(files_, (root / "out").string() + "/", {{"a", "x", 0644}}, false);
  EXPECT_EQ(read(root / "out/a"), "x");
  EXPECT_EQ(entries(), 1u);
  write_tree_atomically(files_, (root / "out").string() + "//", {{"a", "y", 0644}}, true);
  EXPECT_EQ(read(root / "out/a"), "y");
  for (const std::string& bad : std::vector<std::string>{".", "./", "..", "../", "/", "//", (root / "out/..").string()}) {
    EXPECT_THROW(write_tree_atomically(files_, bad, {{"a", "x", 0644}}, true), InputError) << bad;
  }
}

}  // namespace gpupack
