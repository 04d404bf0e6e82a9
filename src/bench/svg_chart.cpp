#include "bench/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpupack::bench {

namespace {

constexpr double kWidth = 720, kHeight = 320, kLeft = 70, kRight = 150, kTop = 40, kBottom = 50;
constexpr const char* kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

const char* colour(size_t i) { return kColours[i % (sizeof kColours / sizeof kColours[0])]; }

// Maps a value range onto the plot's vertical extent (optionally in log10).
struct Scale {
  double lo, hi;
  bool log;
  double operator()(double v) const {
    const double a = log ? std::log10(std::max(v, 1e-12)) : v;
    const double l = log ? std::log10(lo) : lo, h = log ? std::log10(hi) : hi;
    return (a - l) / (h - l);
  }
};

// Round tick values: 1, 2, 5 x 10^n in linear scale, powers of ten in log scale.
std::vector<double> ticks(const Scale& s) {
  std::vector<double> out;
  if (s.log) {
    for (double v = std::pow(10, std::floor(std::log10(s.lo))); v <= s.hi * 1.0001; v *= 10) {
      if (v >= s.lo * 0.9999) out.push_back(v);
    }
    return out;
  }
  const double raw = (s.hi - s.lo) / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
  for (double v = std::ceil(s.lo / step) * step; v <= s.hi + step * 1e-6; v += step) out.push_back(v);
  return out;
}

std::string tick_label(double v) {
  if (v >= 1000) return fmt::format("{:.0f}", v);
  if (v >= 10) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}

std::string frame(const std::string& title, const std::string& y_label) {
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" aria-label="{2}">)"
      R"(<text x="{3}" y="22" class="title">{2}</text>)"
      R"svg(<text transform="translate(16 {4}) rotate(-90)" text-anchor="middle" class="axis">{5}</text>)svg",
      kWidth, kHeight, escape_xml(title), kLeft, kTop + (kHeight - kTop - kBottom) / 2, escape_xml(y_label));
}

std::string y_axis(const Scale& s) {
  std::string out;
  const double plot_h = kHeight - kTop - kBottom;
  for (double v : ticks(s)) {
    const double y = kTop + plot_h * (1 - s(v));
    out += fmt::format(R"(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" class="grid"/>)", kLeft, kWidth - kRight, y, y);
    out += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end" class="axis">{}</text>)", kLeft - 6, y + 4, tick_label(v));
  }
  return out;
}

std::string legend(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    const double y = kTop + 18.0 * static_cast<double>(i);
    out += fmt::format(R"(<rect x="{}" y="{:.0f}" width="12" height="12" fill="{}"/>)", kWidth - kRight + 12, y, colour(i));
    out += fmt::format(R"(<text x="{}" y="{:.0f}" class="axis">{}</text>)", kWidth - kRight + 30, y + 10, escape_xml(names[i]));
  }
  return out;
}

Scale value_scale(double lo, double hi, bool log) {
  if (log) {
    lo = std::pow(10, std::floor(std::log10(std::max(lo, 1e-9))));
    hi = std::pow(10, std::ceil(std::log10(std::max(hi, lo * 10))));
    return {lo, hi, true};
  }
  return {0, hi > 0 ? hi * 1.1 : 1, false};
}

}  // namespace

std::string escape_xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string render_bar_chart(const BarChart& c) {
  double lo = 1e300, hi = 0;
  for (const auto& s : c.series) {
    for (const auto& v : s.values) {
      if (v && *v > 0) lo = std::min(lo, *v), hi = std::max(hi, *v);
    }
  }
  if (c.reference) hi = std::max(hi, *c.reference), lo = std::min(lo, *c.reference);
  if (hi <= 0) lo = 1, hi = 1;
  const Scale s = value_scale(lo, hi, c.log_y);
  std::string out = frame(c.title, c.y_label) + y_axis(s);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  const double group_w = plot_w / static_cast<double>(std::max<size_t>(c.categories.size(), 1));
  const double bar_w = group_w * 0.8 / static_cast<double>(std::max<size_t>(c.series.size(), 1));
  for (size_t g = 0; g < c.categories.size(); ++g) {
    const double gx = kLeft + group_w * static_cast<double>(g);
    out += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle" class="axis">{}</text>)", gx + group_w / 2,
                       kHeight - kBottom + 18, escape_xml(c.categories[g]));
    for (size_t i = 0; i < c.series.size(); ++i) {
      const auto& v = g < c.series[i].values.size() ? c.series[i].values[g] : std::nullopt;
      if (!v || *v <= 0) continue;
      const double h = plot_h * std::clamp(s(*v), 0.0, 1.0);
      const double x = gx + group_w * 0.1 + bar_w * static_cast<double>(i);
      out += fmt::format(R"(<rect class="bar" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"><title>{}: {}</title></rect>)",
                         x, kTop + plot_h - h, bar_w * 0.95, h, colour(i), escape_xml(c.series[i].name + " " + c.categories[g]),
                         fmt::format("{:.3g}", *v));
    }
  }
  if (c.reference) {
    const double y = kTop + plot_h * (1 - std::clamp(s(*c.reference), 0.0, 1.0));
    out += fmt::format(R"(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" class="ref"/>)", kLeft, kWidth - kRight, y, y);
  }
  std::vector<std::string> names;
  for (const auto& series : c.series) names.push_back(series.name);
  return out + legend(names) + "</svg>";
}

std::string render_line_chart(const LineChart& c) {
  double xlo = 1e300, xhi = -1e300, yhi = 0;
  for (const auto& s : c.series) {
    for (const auto& [x, y] : s.points) xlo = std::min(xlo, x), xhi = std::max(xhi, x), yhi = std::max(yhi, y);
  }
  if (xhi < xlo) xlo = 1, xhi = 10;
  const Scale sy = value_scale(0, yhi, false);
  const Scale sx = c.log_x ? value_scale(xlo, xhi, true) : Scale{std::min(0.0, xlo), xhi > 0 ? xhi * 1.05 : 1, false};
  std::string out = frame(c.title, c.y_label) + y_axis(sy);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  for (double v : ticks(sx)) {
    const double x = kLeft + plot_w * sx(v);
    out += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle" class="axis">{}</text>)", x, kHeight - kBottom + 18, tick_label(v));
  }
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" class="axis">{}</text>)", kLeft + plot_w / 2, kHeight - 8,
                     escape_xml(c.x_label));
  for (size_t i = 0; i < c.series.size(); ++i) {
    std::string points;
    for (const auto& [x, y] : c.series[i].points) {
      points += fmt::format("{:.1f},{:.1f} ", kLeft + plot_w * std::clamp(sx(x), 0.0, 1.0), kTop + plot_h * (1 - sy(y)));
    }
    out += fmt::format(R"(<polyline class="line" fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}</title></polyline>)",
                       colour(i), points, escape_xml(c.series[i].name));
  }
  std::vector<std::string> names;
  for (const auto& series : c.series) names.push_back(series.name);
  return out + legend(names) + "</svg>";
}

}  // namespace gpupack::bench
