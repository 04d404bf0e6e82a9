// The Env seam: the real parts do what the fakes pretend to, so that a test on the fakes says something
// about the real thing.
#include "os/env.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>

#include "fakes/fake_env.hpp"
#include "fakes/temp_dir.hpp"

namespace gpupack {
namespace {

// Writes, reads back bounded and unbounded, and reads a missing file: the same answers on both.
void expect_files_round_trip(Filesystem& fs, const std::string& dir) {
  fs.make_dirs(dir + "/a", 0700);
  EXPECT_TRUE(fs.stat(dir + "/a").is_dir);
  EXPECT_EQ(fs.stat(dir + "/a").mode, 0700u);
  fs.write_file(dir + "/a/f", "hello");
  EXPECT_EQ(fs.read_file(dir + "/a/f"), "hello");
  EXPECT_EQ(fs.read_bounded(dir + "/a/f", 100).text, "hello");
  EXPECT_EQ(fs.read_bounded(dir + "/a/f", 2).text, "hel");  // one byte past the limit
  const BoundedRead missing = fs.read_bounded(dir + "/a/none", 100);
  EXPECT_FALSE(missing.text);
  EXPECT_EQ(missing.error, ENOENT);
}

TEST(Env, RealAndInMemoryFilesAgree) {
  testing::TempDir tmp;
  SystemEnv real;
  expect_files_round_trip(real.env().fs, tmp.path());
  testing::FakeEnv fake;
  expect_files_round_trip(fake.env().fs, "/tmp/x");
}

TEST(Env, BoundedReadStopsOnAnEndlessDevice) {
  PosixFilesystem fs;
  EXPECT_EQ(fs.read_bounded("/dev/zero", 1000).text->size(), 1001u);
}

TEST(Env, EnvironmentVariablesAndTheTemporaryRoot) {
  ProcessEnvironment real;
  EXPECT_EQ(real.get("PATH").has_value(), std::getenv("PATH") != nullptr);
  EXPECT_FALSE(real.get("GPUPACK_SURELY_UNSET_VARIABLE"));
  testing::FakeEnvironment vars;
  EXPECT_EQ(temp_root(vars), "/tmp");
  vars.values["TMPDIR"] = "";
  EXPECT_EQ(temp_root(vars), "/tmp");
  vars.values["TMPDIR"] = "/scratch";
  EXPECT_EQ(temp_root(vars), "/scratch");
}

TEST(Env, TheFakeClockMovesOnlyWhenSleptOn) {
  testing::FakeEnv fake;
  Env env = fake.env();
  const auto start = env.clock.now();
  EXPECT_EQ(env.clock.now(), start);
  env.clock.sleep_for(std::chrono::seconds(30));
  EXPECT_EQ(env.clock.now() - start, std::chrono::seconds(30));
  env.log.log("one line");
  EXPECT_EQ(fake.log.lines, std::vector<std::string>{"one line"});
}

TEST(Env, InMemoryLocksAreExclusiveUntilReleased) {
  testing::MemoryFilesystem fs;
  auto first = fs.try_lock("/run/lock");
  ASSERT_TRUE(first);
  EXPECT_FALSE(fs.try_lock("/run/lock"));
  first.reset();
  EXPECT_TRUE(fs.try_lock("/run/lock"));
}

}  // namespace
}  // namespace gpupack
