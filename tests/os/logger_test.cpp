// The log line formats (the agent's text and json lines) and the stderr redirect the agent runs under.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "os/clock.hpp"
#include "os/logger.hpp"

namespace gpupack {
namespace {

// 2026-11-27T14:25:00.123Z
constexpr double kTime = 1795789500.123;

TEST(Rfc3339Utc, SecondsAndMilliseconds) {
  EXPECT_EQ(rfc3339_utc(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(rfc3339_utc(kTime), "2026-11-27T14:25:00Z");
  EXPECT_EQ(rfc3339_utc(kTime, true), "2026-11-27T14:25:00.123Z");
  // Just below a whole second stays in that second: .999, never a rounded-up 60th second.
  EXPECT_EQ(rfc3339_utc(59.9996, true), "1970-01-01T00:00:59.999Z");
}

TEST(FormatLogLine, TextHasTimeLevelAndMessage) {
  EXPECT_EQ(format_log_line(LogFormat::text, kTime, LogLevel::info, "serving /metrics on 0.0.0.0:9410"),
            "2026-11-27T14:25:00.123Z info serving /metrics on 0.0.0.0:9410");
  EXPECT_EQ(format_log_line(LogFormat::text, kTime, LogLevel::error, "MPS daemon failed"),
            "2026-11-27T14:25:00.123Z error MPS daemon failed");
}

TEST(FormatLogLine, PlainKeepsTheCommandsBareLines) {
  EXPECT_EQ(format_log_line(LogFormat::plain, kTime, LogLevel::warning, "no GPU", "gpupack: "), "gpupack: no GPU");
}

TEST(FormatLogLine, ANewlineNeverSplitsARecord) {
  EXPECT_EQ(format_log_line(LogFormat::text, kTime, LogLevel::info, "a\nb"), "2026-11-27T14:25:00.123Z info a\\nb");
  const std::string json = format_log_line(LogFormat::json, kTime, LogLevel::info, "a\nb");
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(json)["msg"], "a\nb");
}

TEST(FormatLogLine, JsonIsOneObjectWithTsLevelMsgInThatOrder) {
  const std::string line = format_log_line(LogFormat::json, kTime, LogLevel::warning, "quote \" and \\ slash");
  EXPECT_EQ(line, R"({"ts":"2026-11-27T14:25:00.123Z","level":"warning","msg":"quote \" and \\ slash"})");
}

TEST(FormatLogLine, JsonReplacesInvalidUtf8InsteadOfThrowing) {
  const std::string line = format_log_line(LogFormat::json, kTime, LogLevel::info, std::string("bad \xff byte"));
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["msg"], "bad \xEF\xBF\xBD byte");
}

class LevelRecorder : public Logger {
 public:
  std::vector<std::pair<LogLevel, std::string>> lines;
  void log(const std::string& line) override { log_at(LogLevel::info, line); }
  void log_at(LogLevel level, const std::string& line) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    lines.emplace_back(level, line);
  }

 private:
  std::mutex mutex_;
};

TEST(LogRedirect, EveryLineGoesThroughTheLoggerWithoutThePrefix) {
  std::ostringstream stream;
  LevelRecorder recorder;
  {
    LogRedirect redirect(stream, recorder, "gpupack agent: ");
    stream << "gpupack agent: " << "MPS daemon up for " << 'G' << "PU-1" << std::endl;
    stream << "no prefix here\nsecond line\n";
    stream << "unfinished";
  }
  stream << "after\n";  // the stream's own buffer is back
  ASSERT_EQ(recorder.lines.size(), 4u);
  EXPECT_EQ(recorder.lines[0].second, "MPS daemon up for GPU-1");
  EXPECT_EQ(recorder.lines[0].first, LogLevel::info);
  EXPECT_EQ(recorder.lines[1].second, "no prefix here");
  EXPECT_EQ(recorder.lines[2].second, "second line");
  EXPECT_EQ(recorder.lines[3].second, "unfinished");  // not lost when the redirect ends
  EXPECT_EQ(stream.str(), "after\n");
  // A later redirect on this thread starts with an empty line, not with what an earlier one left.
  {
    LogRedirect redirect(stream, recorder, "");
    stream << "half";
  }
  {
    LogRedirect redirect(stream, recorder, "");
    stream << "fresh\n";
  }
  EXPECT_EQ(recorder.lines.back().second, "fresh");
}

// std::cerr, as the agent uses it: the standard streams are the ones threads may write to at once.
// The agent marks warnings and errors after its prefix (Agent::log); the redirect gives them their level.
TEST(LogRedirect, AWarningOrErrorMarkerIsTheLinesLevel) {
  std::ostringstream stream;
  LevelRecorder recorder;
  {
    LogRedirect redirect(stream, recorder, "gpupack agent: ");
    stream << "gpupack agent: error: reload refused, the old config stays in force: bad\n";
    stream << "gpupack agent: warning: XID 79 on GPU-1\n";
    stream << "gpupack agent: config reloaded\n";
  }
  ASSERT_EQ(recorder.lines.size(), 3u);
  EXPECT_EQ(recorder.lines[0], std::make_pair(LogLevel::error, std::string("reload refused, the old config stays in force: bad")));
  EXPECT_EQ(recorder.lines[1], std::make_pair(LogLevel::warning, std::string("XID 79 on GPU-1")));
  EXPECT_EQ(recorder.lines[2], std::make_pair(LogLevel::info, std::string("config reloaded")));
}

TEST(LogRedirect, ThreadsWritingPiecesNeverMixTheirLines) {
  std::ostream& stream = std::cerr;
  LevelRecorder recorder;
  {
    LogRedirect redirect(stream, recorder, "");
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([t] {
        for (int i = 0; i < 200; ++i) std::cerr << "thread " << t << " line " << i << '\n';
      });
    }
    for (auto& th : threads) th.join();
  }
  ASSERT_EQ(recorder.lines.size(), 800u);
  for (const auto& [level, line] : recorder.lines) {
    EXPECT_TRUE(line.rfind("thread ", 0) == 0 && line.find(" line ") != std::string::npos) << line;
    EXPECT_EQ(line.find("thread", 1), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace gpupack
