#include "core/units.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {

struct Unit {
  std::string_view name;
  std::uint64_t bytes;
};

// Ki..Ti are Kubernetes' quantity suffixes for the same binary units (`20Gi`, and the Mi of gpupack's
// own DRA files); the bare decimal K/M/G/T are not accepted, as Kubernetes' "m" would mean milli.
constexpr std::array<Unit, 13> kUnits{{{"b", 1},
                                      {"ki", kKiB},
                                      {"mi", kMiB},
                                      {"gi", kGiB},
                                      {"ti", kTiB},
                                      {"kib", kKiB},
                                      {"mib", kMiB},
                                      {"gib", kGiB},
                                      {"tib", kTiB},
                                      {"kb", 1000},
                                      {"mb", 1000 * 1000},
                                      {"gb", 1000 * 1000 * 1000},
                                      {"tb", 1000ull * 1000 * 1000 * 1000}}};

[[noreturn]] void bad_size(std::string_view text, std::string_view why) {
  throw InputError("invalid size '" + quote_input(text) + "': " + std::string(why) +
                   "; write a positive number and a unit, e.g. 6GiB, 20Gi, 512MiB, 1.5GB");
}

}  // namespace

std::uint64_t parse_size(std::string_view text) {
  size_t i = 0;
  // Digits with at most one decimal point; no sign, no exponent, no spaces inside the number.
  bool seen_dot = false;
  bool seen_digit = false;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || (text[i] == '.' && !seen_dot))) {
    if (text[i] == '.') seen_dot = true;
    else seen_digit = true;
    ++i;
  }
  if (!seen_digit) bad_size(text, "no number");
  if (i > 24) bad_size(text, "number too long");
  const std::string number(text.substr(0, i));
  size_t j = i;
  while (j < text.size() && text[j] == ' ') ++j;  // "6 GiB" is accepted
  const std::string unit = to_lower(text.substr(j));
  if (unit.empty()) bad_size(text, "no unit");
  const Unit* found = nullptr;
  for (const Unit& u : kUnits) {
    if (u.name == unit) found = &u;
  }
  if (!found) bad_size(text, "unknown unit '" + std::string(text.substr(j)) + "'");
  const double value = std::strtod(number.c_str(), nullptr);
  const double bytes = value * static_cast<double>(found->bytes);
  if (!(bytes >= 1.0)) bad_size(text, "must be positive");
  // 2^60 bytes (1 EiB) is far above any GPU and keeps the sums in the planner away from overflow.
  if (bytes > static_cast<double>(1ull << 60)) bad_size(text, "too large");
  return static_cast<std::uint64_t>(std::llround(bytes));
}

std::string format_size(std::uint64_t bytes) {
  static constexpr std::array<std::pair<const char*, std::uint64_t>, 4> kBinary{
      {{"TiB", kTiB}, {"GiB", kGiB}, {"MiB", kMiB}, {"KiB", kKiB}}};
  for (const auto& [name, size] : kBinary) {
    if (bytes >= size) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(bytes) / static_cast<double>(size));
      std::string s = buf;
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
      return s + name;
    }
  }
  return std::to_string(bytes) + "B";
}

std::uint64_t gib_to_bytes(double gib) {
  return static_cast<std::uint64_t>(std::floor(gib * 1024.0)) * kMiB;
}

}  // namespace gpupack
