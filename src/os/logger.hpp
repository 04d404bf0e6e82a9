#pragma once
// Lines for the operator (progress, warnings, a daemon's events) behind an interface, so that tests can
// read what was logged instead of scraping stderr. A daemon's lines carry a time and a level, as kubelet
// plugins and DCGM exporter log (`text`), or are one JSON object a line for log collectors (`json`);
// interactive commands keep bare lines (`plain`).
#include <memory>
#include <mutex>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>

namespace gpupack {

class Clock;

enum class LogLevel { debug, info, warning, error };
std::string_view to_string(LogLevel level);

// plain: "<prefix><msg>"; text: "<RFC 3339 UTC, ms> <level> <msg>"; json: {"ts":...,"level":...,"msg":...}.
enum class LogFormat { plain, text, json };

// One log line without its newline. The message is written as given in plain and text (callers log one
// line; a newline in it is escaped so a line stays one record) and JSON-escaped in json (invalid UTF-8
// replaced, never thrown on).
std::string format_log_line(LogFormat format, double unix_seconds, LogLevel level, std::string_view msg,
                            std::string_view prefix = {});

class Logger {
 public:
  virtual ~Logger() = default;
  // One line, without its newline, at level info.
  virtual void log(const std::string& line) = 0;
  // One line at `level`; loggers that keep no level (the tests' recorder) take it as log(line).
  virtual void log_at(LogLevel level, const std::string& line) {
    (void)level;
    log(line);
  }
};

// Writes one formatted line to the process's stderr (C stdio, not std::cerr, so a LogRedirect of
// std::cerr can forward to it) and flushes: a daemon's log reaches journald or kubelet at once. Lines from
// several threads never interleave. text and json need `clock` for the time.
class StderrLogger : public Logger {
 public:
  explicit StderrLogger(std::string prefix = "gpupack: ") : prefix_(std::move(prefix)) {}
  StderrLogger(LogFormat format, const Clock& clock, std::string prefix = {})
      : prefix_(std::move(prefix)), format_(format), clock_(&clock) {}
  void log(const std::string& line) override { log_at(LogLevel::info, line); }
  void log_at(LogLevel level, const std::string& line) override;

 private:
  std::string prefix_;
  LogFormat format_ = LogFormat::plain;
  const Clock* clock_ = nullptr;
  std::mutex mutex_;
};

// While alive, every line written to `stream` (std::cerr: code that writes its own "gpupack agent: ..."
// lines) goes through `logger` at level info, with `strip_prefix` removed from its start; the stream's
// own buffer comes back at destruction. Each thread's partial line is kept apart until its newline.
class LogRedirect {
 public:
  LogRedirect(std::ostream& stream, Logger& logger, std::string strip_prefix);
  ~LogRedirect();
  LogRedirect(const LogRedirect&) = delete;
  LogRedirect& operator=(const LogRedirect&) = delete;

 private:
  class LineBuffer;
  std::ostream& stream_;
  std::unique_ptr<LineBuffer> buffer_;
  std::streambuf* previous_;
};

}  // namespace gpupack
