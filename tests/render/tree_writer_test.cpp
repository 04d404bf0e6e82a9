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
  write_tree_atomically(files_, {(root / "out").string(), false, {}}, tree);
  EXPECT_EQ(read(root / "out/README.txt"), "hello\n");
  struct stat st {};
  ASSERT_EQ(::stat((root / "out/mps/node-a/start.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  ASSERT_EQ(::stat((root / "out/README.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_EQ(entries(), 1u) << "no temporary directory left behind";
}

TEST_F(TreeWriterTest, RefusesExistingDirectoryWithoutForce) {
  write_tree_atomically(files_, {(root / "out").string(), false, {}}, {{"keep", "rendered", 0644}});
  EXPECT_THROW(write_tree_atomically(files_, {(root / "out").string(), false, {}}, {{"a", "new", 0644}}), InputError);
  EXPECT_EQ(read(root / "out/keep"), "rendered");
  write_tree_atomically(files_, {(root / "out").string(), true, {}}, {{"a", "new", 0644}});
  EXPECT_FALSE(fs::exists(root / "out/keep"));
  EXPECT_EQ(read(root / "out/a"), "new");
  EXPECT_TRUE(fs::exists(root / "out" / kRenderMarkerFile));
  EXPECT_EQ(entries(), 1u);
}

// Issue 38, item 12: --force removes only a directory that a render wrote (its marker file), never a
// directory of the user's.
TEST_F(TreeWriterTest, ForceNeverReplacesADirectoryNoRenderWrote) {
  fs::create_directories(root / "mine/sub");
  std::ofstream(root / "mine/sub/precious") << "precious";
  try {
    write_tree_atomically(files_, {(root / "mine").string(), true, {}}, {{"a", "new", 0644}});
    ADD_FAILURE() << "replaced a directory without the marker";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("was not written by gpupack render"), std::string::npos) << e.what();
  }
  std::ofstream(root / "plain-file") << "a file";
  EXPECT_THROW(write_tree_atomically(files_, {(root / "plain-file").string(), true, {}}, {{"a", "new", 0644}}), InputError);
  EXPECT_EQ(read(root / "mine/sub/precious"), "precious");
  EXPECT_EQ(read(root / "plain-file"), "a file");
  EXPECT_EQ(entries(), 2u) << "no temporary directory left behind";
}

// Issue 38, item 9: -o /proc/x was an internal error (exit 70); an I/O failure on the user's path is an
// InputError naming it, and nothing is left behind.
TEST_F(TreeWriterTest, AnUnwritableDirectoryIsAnInputErrorNamingIt) {
  try {
    write_tree_atomically(files_, {"/proc/gpupack-render-test", false, {}}, {{"a", "x", 0644}});
    ADD_FAILURE() << "wrote under /proc";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write output directory '/proc/gpupack-render-test': "), std::string::npos)
        << e.what();
  }
}

TEST_F(TreeWriterTest, RejectsUnsafePathsAndWritesNothing) {
  for (const char* bad : {"../escape", "/abs", "a/../../b", "", "a//b/./c"}) {
    EXPECT_THROW(write_tree_atomically(files_, {(root / "out").string(), false, {}}, {{"ok", "x", 0644}, {bad, "x", 0644}}),
                 InputError)
        << bad;
    EXPECT_FALSE(fs::exists(root / "out"));
  }
  EXPECT_EQ(entries(), 0u);
}

TEST_F(TreeWriterTest, FailureMidWayLeavesNothing) {
  // A file and a directory with the same name cannot both be written: the second write fails.
  const FileTree tree{{"a", "file", 0644}, {"a/b", "under a file", 0644}};
  EXPECT_ANY_THROW(write_tree_atomically(files_, {(root / "out").string(), false, {}}, tree));
  EXPECT_FALSE(fs::exists(root / "out"));
  EXPECT_EQ(entries(), 0u);
}

TEST_F(TreeWriterTest, MissingParentIsAnInputError) {
  EXPECT_THROW(write_tree_atomically(files_, {(root / "no/such/out").string(), false, {}}, {{"a", "x", 0644}}), InputError);
}

TEST(TreeWriterInMemory, ReplacesTheDirectoryWholeWithForce) {
  testing::MemoryFilesystem mem;
  mem.make_dirs("/work", 0755);
  mem.write_file("/work/out/keep", "old");
  mem.write_file(std::string("/work/out/") + kRenderMarkerFile, "an earlier render");
  mem.make_dirs("/work/out", 0755);
  write_tree_atomically(mem, {"out", true, {}}, {{"mps/start.sh", "#!/bin/sh\n", 0755}});  // relative to mem.cwd
  EXPECT_FALSE(mem.stat("/work/out/keep").exists);
  EXPECT_EQ(mem.read_file("/work/out/mps/start.sh"), "#!/bin/sh\n");
  EXPECT_EQ(mem.list_dir("/work"), std::vector<std::string>{"out"});  // no staging or old directory left
}

// Issue 32: README and docs write `-o out/`; a trailing slash names the same directory. ".", ".." and "/"
// stay refused (replacing them would replace the working directory or its parents).
TEST_F(TreeWriterTest, TrailingSlashNamesTheDirectory) {
  write_tree_atomically(files_, {(root / "out").string() + "/", false, {}}, {{"a", "x", 0644}});
  EXPECT_EQ(read(root / "out/a"), "x");
  EXPECT_EQ(entries(), 1u);
  write_tree_atomically(files_, {(root / "out").string() + "//", true, {}}, {{"a", "y", 0644}});
  EXPECT_EQ(read(root / "out/a"), "y");
  for (const std::string& bad : std::vector<std::string>{".", "./", "..", "../", "/", "//", (root / "out/..").string()}) {
    EXPECT_THROW(write_tree_atomically(files_, {bad, true, {}}, {{"a", "x", 0644}}), InputError) << bad;
  }
}

// Issue 38, item 12: `render -o "$PWD" --force` or `-o ../proj --force` deleted the working directory, the
// input plan included. Refused: a directory that is or holds the current directory or an input file.
TEST(TreeWriterInMemory, RefusesADirectoryHoldingTheCurrentDirectoryOrAnInput) {
  testing::MemoryFilesystem mem;  // current directory: /work
  mem.make_dirs("/work", 0755);
  mem.make_dirs("/data/in", 0755);
  mem.write_file("/work/plan.json", "{}");
  mem.write_file("/data/in/plan.json", "{}");
  mem.write_file(std::string("/work/") + kRenderMarkerFile, "even with the marker");
  auto error_of = [&](const TreeDestination& d) -> std::string {
    try {
      write_tree_atomically(mem, d, {{"a", "x", 0644}});
    } catch (const InputError& e) {
      return e.what();
    }
    return "written";
  };
  for (const char* dir : {".", "/work", "../work", "./", "/work/../work/."}) {
    EXPECT_NE(error_of({dir, true, {"plan.json"}}).find("is the current directory or one of its parents"), std::string::npos) << dir;
  }
  EXPECT_NE(error_of({"/", true, {}}).find("invalid output directory"), std::string::npos);
  EXPECT_NE(error_of({"/data", true, {"/data/in/plan.json"}}).find("contains the input '/data/in/plan.json'"), std::string::npos);
  EXPECT_NE(error_of({"/data/in", true, {"/data/in/plan.json"}}).find("contains the input"), std::string::npos);
  EXPECT_EQ(mem.read_file("/work/plan.json"), "{}");
  EXPECT_EQ(mem.read_file("/data/in/plan.json"), "{}");
  EXPECT_EQ(error_of({"/data/out", false, {"/data/in/plan.json"}}), "written");  // beside the input: fine
}

}  // namespace gpupack
