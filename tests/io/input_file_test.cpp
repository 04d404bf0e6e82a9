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

}  // namespace gpupack
