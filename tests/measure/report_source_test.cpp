#include "measure/report_source.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "fakes/temp_dir.hpp"

namespace gpupack::measure {
namespace {

TEST(FileReportSource, ReadsOnlyWhatWasAppendedSinceTheLastRead) {
  testing::TempDir dir;
  const PosixFilesystem fs;
  FileReportSource source(fs, dir / "report.jsonl");
  EXPECT_EQ(source.read_new(1024), "");  // not written yet
  std::ofstream out(dir / "report.jsonl", std::ios::app);
  out << "{\"event\":\"ready\"" << std::flush;
  EXPECT_EQ(source.read_new(1024), "{\"event\":\"ready\"");
  EXPECT_EQ(source.read_new(1024), "");
  out << ",\"t\":1}\n0123456789" << std::flush;
  EXPECT_EQ(source.read_new(8), ",\"t\":1}\n");  // bounded per call
  EXPECT_EQ(source.read_new(1024), "0123456789");
}

}  // namespace
}  // namespace gpupack::measure
