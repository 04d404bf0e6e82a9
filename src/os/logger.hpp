#pragma once
// Lines for the operator (progress, warnings, a daemon's events) behind an interface, so that tests can
// read what was logged instead of scraping stderr.
#include <string>
#include <utility>

namespace gpupack {

class Logger {
 public:
  virtual ~Logger() = default;
  // One line, without its newline.
  virtual void log(const std::string& line) = 0;
};

// Writes "<prefix><line>\n" to stderr and flushes: a daemon's log reaches journald at once.
class StderrLogger : public Logger {
 public:
  explicit StderrLogger(std::string prefix = "gpupack: ") : prefix_(std::move(prefix)) {}
  void log(const std::string& line) override;

 private:
  std::string prefix_;
};

}  // namespace gpupack
