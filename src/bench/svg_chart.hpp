#pragma once
// Inline SVG charts for the HTML report: grouped bars and lines, drawn with no script and no external
// resource, so the page reads offline and in any browser.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpupack::bench {

std::string escape_xml(const std::string& text);

struct BarSeries {
  std::string name;
  std::vector<std::optional<double>> values;  // one per category; none: no bar
};

struct BarChart {
  std::string title, y_label;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  std::optional<double> reference;  // a dashed horizontal line (e.g. 1.0x, an expectation)
  bool log_y = false;
};

struct LineSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y)
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<LineSeries> series;
  bool log_x = false;
};

std::string render_bar_chart(const BarChart& chart);
std::string render_line_chart(const LineChart& chart);

}  // namespace gpupack::bench
