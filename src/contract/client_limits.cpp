#include "contract/client_limits.hpp"

#include <cstdlib>

namespace gpupack {

namespace {
constexpr std::uint64_t kMiB = 1024 * 1024;
}  // namespace

std::string mps_memory_text(std::uint64_t bytes) { return std::to_string((bytes + kMiB - 1) / kMiB) + "M"; }

std::string pinned_limit_env(std::uint64_t bytes) { return "0=" + mps_memory_text(bytes); }

std::optional<std::uint64_t> pinned_limit_device0(std::string_view value) {
  std::string v(value.substr(0, value.find(',')));
  if (const auto eq = v.find('='); eq != std::string::npos) {
    if (v.substr(0, eq) != "0") return std::nullopt;
    v = v.substr(eq + 1);
  }
  if (v.empty()) return std::nullopt;
  std::uint64_t unit = 1;
  switch (v.back()) {
    case 'K': case 'k': unit = 1ull << 10; break;
    case 'M': case 'm': unit = 1ull << 20; break;
    case 'G': case 'g': unit = 1ull << 30; break;
    case 'T': case 't': unit = 1ull << 40; break;
    default: break;
  }
  if (unit != 1) v.pop_back();
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 12) return std::nullopt;
  return std::stoull(v) * unit;
}

std::optional<double> active_thread_ratio(const std::string& value) {
  char* end = nullptr;
  const double pct = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !(pct > 0 && pct <= 100)) return std::nullopt;
  return pct / 100.0;
}

}  // namespace gpupack
