#include "core/mig_request.hpp"

#include <cctype>
#include <charconv>

#include "core/errors.hpp"

namespace gpupack {

namespace {

// Splits "12x1g.10gb" into 12 and "1g.10gb". A token without an "<digits>x" prefix has count 1.
// "1g.10gb" itself starts with digits but is followed by 'g', not 'x', so it is not a count.
std::pair<int, std::string_view> split_count(std::string_view token) {
  size_t digits = 0;
  while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
  if (digits == 0 || digits >= token.size() || (token[digits] != 'x' && token[digits] != 'X')) {
    return {1, token};
  }
  int count = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + digits, count);
  if (ec != std::errc() || count < 1 || count > kMaxTokenCount) {
    throw InputError("invalid count in MIG profile token '" + std::string(token) + "': expected 1.." +
                     std::to_string(kMaxTokenCount) + " before 'x', e.g. 2x1g.10gb");
  }
  (void)ptr;
  return {count, token.substr(digits + 1)};
}

}  // namespace

MigCounts parse_mig_request(const GpuModel& model, std::span<const std::string> tokens) {
  if (!model.mig) {
    throw InputError(model.name + " does not support MIG; MIG-capable models: A100, A30, H100, H200, GH200, B200, "
                     "GB200, RTX PRO 6000 Blackwell (see `gpupack catalog`)");
  }
  if (tokens.empty()) {
    throw InputError("no MIG profiles given; accepted for " + model.name + ": " + model.mig->profile_names());
  }
  MigCounts counts(model.mig->profiles.size(), 0);
  for (const std::string& token : tokens) {
    auto [count, name] = split_count(token);
    const int index = model.mig->find_profile(name);
    if (index < 0) {
      throw InputError("unknown MIG profile '" + token + "' for " + model.name +
                       "; accepted: " + model.mig->profile_names() + " (optionally prefixed by a count, e.g. 2x)");
    }
    counts[index] += count;
    if (counts[index] > kMaxTokenCount) {
      throw InputError("too many instances of " + model.mig->profiles[index].name + " (" +
                       std::to_string(counts[index]) + "): at most " + std::to_string(kMaxTokenCount) + " accepted");
    }
  }
  return counts;
}

}  // namespace gpupack
