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
  // throughput x2, streams, latency CDF + percentiles + neighbour, thread limits
  EXPECT_EQ(count(html, "<svg"), 7u);
  EXPECT_EQ(count(html, "</svg>"), 7u);
  EXPECT_EQ(count(html, "http://") + count(html, "https://"), count(html, "http://www.w3.org/2000/svg"));
  EXPECT_EQ(count(html, "<script"), 0u);
  EXPECT_EQ(count(html, "<link"), 0u);
  EXPECT_NE(html.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(html.find("MIG mode is Disabled"), std::string::npos);
}

TEST(Report, LatencyChartHasOneLinePerSetting) {
  const std::string html = render_report(testing::recorded_results());
  EXPECT_EQ(count(html, "<polyline"), 6u);
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
