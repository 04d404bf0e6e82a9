#pragma once
// Plain-text tables for people: left-aligned columns separated by two spaces, a header row.
#include <iosfwd>
#include <string>
#include <vector>

namespace gpupack {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// "9.75" / "79" / "19.62": at most two decimals, no trailing zeros.
std::string format_number(double value);

}  // namespace gpupack
