#pragma once
// Where the profiler reads a program's client report from while the program runs: the new bytes of
// the report file since the last read. An interface so that tests can script when lines appear.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "os/filesystem.hpp"

namespace gpupack::measure {

class ReportSource {
 public:
  virtual ~ReportSource() = default;
  // The bytes appended since the previous call (at most `max_bytes`), empty when there are none.
  virtual std::string read_new(std::size_t max_bytes) = 0;
};

// The report file at `path`, read through `fs` (the Env's files) from where the previous call stopped;
// a missing file reads as empty.
class FileReportSource : public ReportSource {
 public:
  FileReportSource(const Filesystem& fs, std::string path) : fs_(fs), path_(std::move(path)) {}
  std::string read_new(std::size_t max_bytes) override;

 private:
  const Filesystem& fs_;
  std::string path_;
  std::size_t offset_ = 0;
};

}  // namespace gpupack::measure
