#include "os/logger.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <ostream>

#include "os/clock.hpp"

namespace gpupack {

std::string_view to_string(LogLevel level) {
  switch (level) {
    case LogLevel::debug: return "debug";
    case LogLevel::info: return "info";
    case LogLevel::warning: return "warning";
    case LogLevel::error: return "error";
  }
  return "info";
}

namespace {

// A message with a newline would read as two records in a line-oriented log: escape it.
std::string one_line(std::string_view msg) {
  std::string out;
  out.reserve(msg.size());
  for (const char c : msg) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out;
}

}  // namespace

std::string format_log_line(LogFormat format, double unix_seconds, LogLevel level, std::string_view msg,
                            std::string_view prefix) {
  switch (format) {
    case LogFormat::plain: return std::string(prefix) + one_line(msg);
    case LogFormat::text:
      return rfc3339_utc(unix_seconds, true) + " " + std::string(to_string(level)) + " " + std::string(prefix) + one_line(msg);
    case LogFormat::json: {
      nlohmann::ordered_json j;  // ordered: ts, level, msg as people read them
      j["ts"] = rfc3339_utc(unix_seconds, true);
      j["level"] = std::string(to_string(level));
      j["msg"] = std::string(prefix) + std::string(msg);
      return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  return std::string(msg);
}

void StderrLogger::log_at(LogLevel level, const std::string& line) {
  const double t = clock_ ? clock_->unix_seconds() : 0.0;
  const std::string text = format_log_line(format_, t, level, line, prefix_) + "\n";
  const std::lock_guard<std::mutex> lock(mutex_);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

class LogRedirect::LineBuffer : public std::streambuf {
 public:
  LineBuffer(Logger& logger, std::string strip_prefix) : logger_(logger), strip_(std::move(strip_prefix)) {}
  // What the destroying thread wrote after its last newline is a line too.
  ~LineBuffer() override {
    Pending& p = pending();
    if (p.owner == id_ && !p.line.empty()) emit(p.line);
    p.line.clear();
  }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    put(traits_type::to_char_type(ch));
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i) put(s[i]);
    return n;
  }

 private:
  // Per thread: `std::cerr << a << b << std::endl` is several calls, and threads must not mix them. The
  // owner id keeps a line one redirect left unfinished out of the next one's.
  struct Pending {
    std::uint64_t owner = 0;
    std::string line;
  };
  static Pending& pending() {
    thread_local Pending p;
    return p;
  }
  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> ids{0};
    return ++ids;
  }
  void put(char c) {
    Pending& p = pending();
    if (p.owner != id_) p = {id_, {}};
    if (c != '\n') {
      p.line += c;
      return;
    }
    emit(p.line);
    p.line.clear();
  }
  // "warning: " or "error: " after the prefix is the line's level (Agent::log writes them); else info.
  void emit(std::string_view text) {
    if (text.substr(0, strip_.size()) == strip_) text.remove_prefix(strip_.size());
    LogLevel level = LogLevel::info;
    for (LogLevel l : {LogLevel::warning, LogLevel::error}) {
      const std::string marker = std::string(to_string(l)) + ": ";
      if (text.substr(0, marker.size()) == marker) {
        level = l;
        text.remove_prefix(marker.size());
      }
    }
    logger_.log_at(level, std::string(text));
  }

  Logger& logger_;
  std::string strip_;
  const std::uint64_t id_ = next_id();
};

LogRedirect::LogRedirect(std::ostream& stream, Logger& logger, std::string strip_prefix)
    : stream_(stream), buffer_(std::make_unique<LineBuffer>(logger, std::move(strip_prefix))) {
  previous_ = stream_.rdbuf(buffer_.get());
}

LogRedirect::~LogRedirect() { stream_.rdbuf(previous_); }

}  // namespace gpupack
