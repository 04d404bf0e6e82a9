#pragma once
// Where the profiler reads a program's client report from while the program runs: the new bytes of
// the report file since the last read. An interface so that tests can script when lines appear.
#include <cstddef>
#include <memory>
#include <string>

namespace gpupack::measure {

class ReportSource {
 public:
  virtual ~ReportSource() = default;
  // The bytes appended since the previous call (at most `max_bytes`), empty when there are none.
  virtual std::string read_new(std::size_t max_bytes) = 0;
};

// The report file at `path`, read from where the previous call stopped; a missing file reads as empty.
class FileReportSource : public ReportSource {
 public:
  explicit FileReportSource(std::string path) : path_(std::move(path)) {}
  std::string read_new(std::size_t max_bytes) override;

 private:
  std::string path_;
  std::size_t offset_ = 0;
};

}  // namespace gpupack::measure
