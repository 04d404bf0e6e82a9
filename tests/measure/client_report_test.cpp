#include "measure/client_report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpupack::measure {
namespace {

ClientReport parse(std::string_view text) {
  ClientReportReader r;
  r.feed(text);
  return r.report();
}

TEST(ClientReport, ParsesReadyRequestsAndSummaries) {
  const auto r = parse(
      "{\"v\":1,\"event\":\"ready\",\"t\":10.0}\n"
      "{\"v\":1,\"event\":\"request\",\"t\":10.5,\"latency_ms\":2.5}\n"
      "{\"event\":\"request\",\"t\":10.6,\"latency_ms\":3}\n"
      "{\"v\":1,\"event\":\"summary\",\"t\":11,\"requests\":40,\"seconds\":1,\"p50_ms\":2.5,\"p99_ms\":7}\n");
  ASSERT_TRUE(r.ready_t);
  EXPECT_DOUBLE_EQ(*r.ready_t, 10.0);
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_DOUBLE_EQ(r.requests[1].latency_ms, 3.0);
  ASSERT_EQ(r.summaries.size(), 1u);
  EXPECT_EQ(r.summaries[0].requests, 40);
  EXPECT_DOUBLE_EQ(*r.summaries[0].p99_ms, 7.0);
  EXPECT_EQ(r.malformed_lines, 0);
  EXPECT_TRUE(r.any_line);
}

TEST(ClientReport, CountsMalformedLinesAndKeepsTheGoodOnes) {
  const auto r = parse(
      "garbage\n"
      "[1,2]\n"
      "{\"event\":\"request\",\"t\":1}\n"                       // no latency
      "{\"event\":\"request\",\"t\":1,\"latency_ms\":-1}\n"     // negative latency
      "{\"event\":\"request\",\"latency_ms\":1}\n"              // no t
      "{\"v\":2,\"event\":\"request\",\"t\":1,\"latency_ms\":1}\n"  // unknown version
      "{\"event\":\"summary\",\"t\":1,\"requests\":3,\"seconds\":0}\n"
      "\n   \n"                                                 // blank lines are fine
      "{\"event\":\"heartbeat\",\"t\":1}\n"                     // unknown events are ignored
      "{\"event\":\"request\",\"t\":2,\"latency_ms\":1.5}\n");
  EXPECT_EQ(r.malformed_lines, 7);
  ASSERT_TRUE(r.first_error);
  EXPECT_NE(r.first_error->find("not a JSON object"), std::string::npos);
  ASSERT_EQ(r.requests.size(), 1u);
  EXPECT_FALSE(r.ready_t);
}

TEST(ClientReport, KeepsAPartialLastLineForTheNextRead) {
  ClientReportReader reader;
  reader.feed("{\"event\":\"ready\",\"t\":1}\n{\"event\":\"requ");
  EXPECT_TRUE(reader.report().ready_t);
  EXPECT_TRUE(reader.report().requests.empty());
  reader.feed("est\",\"t\":2,");
  reader.feed("\"latency_ms\":4}\r\n{\"event\"");
  ASSERT_EQ(reader.report().requests.size(), 1u);
  EXPECT_DOUBLE_EQ(reader.report().requests[0].latency_ms, 4.0);
  EXPECT_EQ(reader.report().malformed_lines, 0);
}

TEST(ClientReport, ByteByByteFeedingGivesTheSameReport) {
  const std::string text = "{\"event\":\"ready\",\"t\":1}\n{\"event\":\"request\",\"t\":2,\"latency_ms\":4}\nx\n";
  ClientReportReader reader;
  for (char c : text) reader.feed(std::string_view(&c, 1));
  EXPECT_EQ(reader.report().requests.size(), 1u);
  EXPECT_EQ(reader.report().malformed_lines, 1);
}

TEST(ClientReport, InterleavedWritersStillParseWholeLines) {
  // Two threads of one program appending whole lines in any order: each line stands alone.
  const auto r = parse(
      "{\"event\":\"request\",\"t\":3,\"latency_ms\":1}\n"
      "{\"event\":\"ready\",\"t\":1}\n"
      "{\"event\":\"request\",\"t\":2,\"latency_ms\":2}\n"
      "{\"event\":\"ready\",\"t\":5}\n");
  EXPECT_DOUBLE_EQ(*r.ready_t, 1.0);  // the first ready line counts
  EXPECT_EQ(r.requests.size(), 2u);
}

TEST(ClientReport, AnOverLongLineIsOneMalformedLineAndIsSkippedWhole) {
  ClientReportReader reader;
  reader.feed("{\"event\":\"request\",\"t\":1,\"pad\":\"");
  reader.feed(std::string(kMaxReportLineBytes, 'x'));
  reader.feed(std::string(100, 'y'));
  reader.feed("\"}\n{\"event\":\"request\",\"t\":2,\"latency_ms\":4}\n");
  EXPECT_EQ(reader.report().malformed_lines, 1);
  EXPECT_EQ(reader.report().requests.size(), 1u);
}

TEST(ClientReport, NothingWrittenIsNoReport) {
  const auto r = parse("");
  EXPECT_FALSE(r.any_line);
  EXPECT_FALSE(figures_in_window(r, 0, 10));
}

TEST(ClientReport, FiguresFromRequestsInTheWindowOnly) {
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text += "{\"event\":\"request\",\"t\":" + std::to_string(5 + i * 0.1) + ",\"latency_ms\":" + std::to_string(i + 1) + "}\n";
  }
  const auto r = parse(text);
  const auto f = figures_in_window(r, 10, 14.95);  // requests 50..99 (t = 10.0 .. 14.9)
  ASSERT_TRUE(f);
  EXPECT_EQ(f->requests, 50);
  EXPECT_NEAR(f->req_per_s, 50 / 4.95, 1e-9);
  EXPECT_NEAR(*f->p50_ms, 75.5, 1e-9);
  EXPECT_NEAR(*f->p99_ms, 51 + 0.99 * 49, 1e-9);
  EXPECT_FALSE(figures_in_window(r, 20, 30));
  EXPECT_FALSE(figures_in_window(r, 10, 10));
}

TEST(ClientReport, RequestLinesGiveTheLowestAndHighestMedianOfTheWindowsWholeSeconds) {
  // 2.4 ms a request for a second, then 4.8 ms, then a second with two requests only (not counted), as a
  // program whose machine changes speed under it (results/run41-residual-noise).
  std::string text;
  auto request = [&](double t, double ms) {
    text += "{\"event\":\"request\",\"t\":" + std::to_string(t) + ",\"latency_ms\":" + std::to_string(ms) + "}\n";
  };
  for (int i = 0; i < 5; ++i) request(10.1 + i * 0.1, 2.4);
  for (int i = 0; i < 3; ++i) request(11.1 + i * 0.2, 4.8);
  request(12.2, 9.0);
  request(12.4, 9.0);
  const auto f = figures_in_window(parse(text), 10, 13);
  ASSERT_TRUE(f && f->p50_second_low_ms && f->p50_second_high_ms);
  EXPECT_DOUBLE_EQ(*f->p50_second_low_ms, 2.4);
  EXPECT_DOUBLE_EQ(*f->p50_second_high_ms, 4.8);
  // One counted second is no range; summaries give none.
  EXPECT_FALSE(figures_in_window(parse(text), 10, 11.9)->p50_second_low_ms);
}

TEST(ClientReport, FiguresFromSummariesWhenThereAreNoRequestLines) {
  const auto r = parse(
      "{\"event\":\"summary\",\"t\":1,\"requests\":1000,\"seconds\":1,\"p50_ms\":1,\"p99_ms\":9}\n"   // before
      "{\"event\":\"summary\",\"t\":2,\"requests\":100,\"seconds\":1,\"p50_ms\":2,\"p99_ms\":4}\n"
      "{\"event\":\"summary\",\"t\":3,\"requests\":300,\"seconds\":1,\"p50_ms\":4,\"p99_ms\":8}\n");
  const auto f = figures_in_window(r, 1.2, 3);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->requests, 400);
  EXPECT_DOUBLE_EQ(f->seconds, 2);
  EXPECT_DOUBLE_EQ(f->req_per_s, 200);
  EXPECT_DOUBLE_EQ(*f->p50_ms, (2 * 100 + 4 * 300) / 400.0);
  EXPECT_DOUBLE_EQ(*f->p99_ms, (4 * 100 + 8 * 300) / 400.0);
  EXPECT_FALSE(f->p50_second_low_ms);
}

TEST(ClientReport, Quantile) {
  EXPECT_DOUBLE_EQ(quantile_of({}, 0.5), 0);
  EXPECT_DOUBLE_EQ(quantile_of({3, 1, 2}, 0.5), 2);
  EXPECT_DOUBLE_EQ(quantile_of({1, 2}, 0.99), 1.99);
}

}  // namespace
}  // namespace gpupack::measure
