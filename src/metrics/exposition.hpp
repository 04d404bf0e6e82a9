#pragma once
// Prometheus text exposition format 0.0.4: each family's HELP and TYPE once before its samples, the
// samples of a family together, label values escaped (\\, \", \n), a newline after the last line.
// Families must be written one at a time (family() then its samples), which keeps them contiguous.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpupack {

using Labels = std::vector<std::pair<std::string_view, std::string_view>>;

class Exposition {
 public:
  static constexpr const char* kContentType = "text/plain; version=0.0.4; charset=utf-8";

  explicit Exposition(std::size_t reserve = 0) { text_.reserve(reserve); }
  // type: gauge, counter, info-style gauges are "gauge" with value 1.
  void family(std::string_view name, std::string_view type, std::string_view help);
  void sample(const Labels& labels, double value);
  const std::string& text() const { return text_; }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
  std::string name_;
};

// Appends a label value with the escaping the format requires.
void append_escaped(std::string& out, std::string_view value);
// Shortest text that reads back as the same double ("1", "0.25", "8.5899345920e+10" -> "85899345920").
void append_number(std::string& out, double value);

}  // namespace gpupack
