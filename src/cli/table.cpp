#include "cli/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace gpupack {

void Table::print(std::ostream& out) const {
  std::vector<size_t> width(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t i = 0; i < row.size() && i < width.size(); ++i) {
      line += i + 1 == row.size() ? row[i] : fmt::format("{:<{}}  ", row[i], width[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  emit(header_);
  for (const auto& row : rows_) emit(row);
}

std::string format_number(double value) {
  std::string s = fmt::format("{:.2f}", value);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace gpupack
