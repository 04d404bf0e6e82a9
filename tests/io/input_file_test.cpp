// Issue 12, reproducers: input files are bounded (/dev/zero was read until ~1 GB of memory).
#include "io/input_file.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/errors.hpp"
#include "fakes/memory_filesystem.hpp"
#include "fakes/temp_dir.hpp"

namespace gpupack {

namespace {
std::string error_of(const std::string& path, std::size_t max = kMaxInputFileBytes) {
  try {
    read_input_file(PosixFilesystem{}, path, max);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(InputFile, ReadsAFileUpToTheLimit) {
  testing::TempDir dir;
  std::ofstream(dir / "s.yaml") << std::string(1000, 'x');
  EXPECT_EQ(read_input_file(PosixFilesystem{}, dir / "s.yaml", 1000).size(), 1000u);
  EXPECT_EQ(error_of(dir / "s.yaml", 999), dir / "s.yaml" + " is larger than 999B, the limit for input files (docs/cli.md); "
                                                "no scenario, plan or calibration is that large");
}

TEST(InputFile, RefusesDevZeroAfterTheLimit) {
  EXPECT_NE(error_of("/dev/zero").find("/dev/zero is larger than 4MiB"), std::string::npos) << error_of("/dev/zero");
}

TEST(InputFile, NamesAMissingFileEscaped) {
  EXPECT_EQ(error_of("/nonexistent/a\x1b[2Jb"), "cannot read /nonexistent/a\\x1b[2Jb: No such file or directory");
}

// The same reader over the Env's file system: an in-memory one gives the same messages.
TEST(InputFile, ReadsThroughTheFilesystemItIsGiven) {
  testing::MemoryFilesystem fs;
  fs.files["/in/s.yaml"] = std::string(1000, 'x');
  fs.unreadable.insert("/in/secret.yaml");
  fs.files["/in/secret.yaml"] = "x";
  EXPECT_EQ(read_input_file(fs, "/in/s.yaml", 1000).size(), 1000u);
  EXPECT_THROW(read_input_file(fs, "/in/s.yaml", 999), InputError);
  try {
    read_input_file(fs, "/in/secret.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "cannot read /in/secret.yaml: Permission denied");
  }
}

namespace {
std::string output_error(const Filesystem& fs, const std::string& path) {
  try {
    check_output_file(fs, "--json", path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

// Checked before a long run (verify, bench), so that its results are not lost at its end.
TEST(OutputFile, ACheckedPathIsInAWritableFolderAndNotAFolder) {
  testing::TempDir dir;
  PosixFilesystem fs;
  EXPECT_EQ(output_error(fs, dir / "r.json"), "no error");
  EXPECT_EQ(output_error(fs, "r.json"), "no error");  // the current folder
  EXPECT_EQ(output_error(fs, dir.path()), "--json " + dir.path() + ": is a folder; give a file name");
  EXPECT_EQ(output_error(fs, dir / "no/r.json"), "--json " + (dir / "no/r.json") + ": cannot write it: no folder " + (dir / "no"));
  EXPECT_EQ(output_error(fs, ""), "--json : give a file name");
  testing::MemoryFilesystem memory;
  memory.make_dirs("/out", 0755);
  memory.read_only.insert("/out");
  EXPECT_EQ(output_error(memory, "/out/r.json"), "--json /out/r.json: cannot write it: the folder /out is not writable");
}

}  // namespace gpupack
