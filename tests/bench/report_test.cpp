#include "bench/report_html.hpp"

#include <gtest/gtest.h>

#include "bench/recorded_results.hpp"
#include "bench/svg_chart.hpp"

namespace gpupack::bench {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Report, IsOneSelfContainedPageWithCharts) {
  const std::string html = render_report(testing::recorded_results());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // throughput x2, streams, latency CDF + percentiles + neighbour, thread limits, the grid's req/s and p99
  EXPECT_EQ(count(html, "<svg"), 9u);
  EXPECT_EQ(count(html, "</svg>"), 9u);
  EXPECT_EQ(count(html, "http://") + count(html, "https://"), count(html, "http://www.w3.org/2000/svg"));
  EXPECT_EQ(count(html, "<script"), 0u);
  EXPECT_EQ(count(html, "<link"), 0u);
  EXPECT_NE(html.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(html.find("MIG mode is Disabled"), std::string::npos);
}

TEST(Report, LatencyChartHasOneLinePerSetting) {
  BenchResults r = testing::recorded_results();
  r.colocation.reset();
  EXPECT_EQ(count(render_report(r), "<polyline"), 6u);
}

TEST(Report, GridCurvesPerModeAndEveryCell) {
  const std::string html = render_report(testing::recorded_results());
  EXPECT_EQ(count(html, "<polyline"), 6u + 4u);  // aggregate req/s and p99 vs K, one line per mode each
  EXPECT_NE(html.find("aggregate req/s of K copies"), std::string::npos);
  EXPECT_NE(html.find("<td>mps K=1 + neighbour at 50%</td><td>300.0</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>0.62</td>"), std::string::npos);  // the neighbour kept 62% of its alone rate
  EXPECT_EQ(html.find("request latency was not reported"), std::string::npos);
}

TEST(Report, SweepAddsTheSmShareCurve) {
  BenchResults r = testing::recorded_results();
  r.sm_share_curve = {{100, 341, 2.9, 6.9}, {50, 338, 3.0, 7.2}, {25, 250, 3.9, 11.0}, {12, 140, 7.0, 19.0}};
  const std::string html = render_report(r);
  EXPECT_NE(html.find("p99 vs SM share"), std::string::npos);
  EXPECT_EQ(count(html, "<svg"), 10u);
  EXPECT_NE(html.find("Compute demand: 50%"), std::string::npos);
}

TEST(Report, ProgramWithoutReportsShowsWallTimeAndSaysSo) {
  BenchResults r = testing::recorded_results();
  measure::ColocationGrid g{"./legacy", "", 10, {}};
  measure::CopyResult silent;
  silent.wall_s = 17;
  g.cells.push_back({"timeslicing", 1, false, std::nullopt, 0, {silent}, std::nullopt, ""});
  silent.wall_s = 18.6;
  g.cells.push_back({"timeslicing", 2, false, std::nullopt, 0, {silent, silent}, std::nullopt, ""});
  r.colocation = g;
  const std::string html = render_report(r);
  EXPECT_NE(html.find("Request latency was not reported"), std::string::npos);
  EXPECT_NE(html.find("mean wall time of K copies"), std::string::npos);
  EXPECT_EQ(count(html, "<svg"), 8u);
}

TEST(Report, EscapesUserText) {
  BenchResults r = testing::recorded_results();
  r.options.client_cmd = "python serve.py --tag '<b>&'";
  r.colocation = measure::ColocationGrid{*r.options.client_cmd, "", 10, {}};
  const std::string html = render_report(r);
  EXPECT_NE(html.find("--tag &#39;&lt;b&gt;&amp;&#39;"), std::string::npos);
  EXPECT_EQ(html.find("<b>&"), std::string::npos);
}

TEST(SvgChart, BarsOnlyForPresentValues) {
  BarChart c{"t", "y", {"a", "b"}, {{"s1", {1.0, std::nullopt}}, {"s2", {2.0, 3.0}}}, 1.0, false};
  const std::string svg = render_bar_chart(c);
  EXPECT_EQ(count(svg, "class=\"bar\""), 3u);
  EXPECT_EQ(count(svg, "class=\"ref\""), 1u);
}

TEST(SvgChart, EmptyChartStillRenders) {
  EXPECT_NE(render_bar_chart({"t", "y", {}, {}, std::nullopt, true}).find("</svg>"), std::string::npos);
  EXPECT_NE(render_line_chart({"t", "x", "y", {}, true}).find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace gpupack::bench
