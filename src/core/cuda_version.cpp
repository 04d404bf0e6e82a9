#include "core/cuda_version.hpp"

#include <charconv>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {
bool parse_small_int(std::string_view text, int& out) {
  if (text.empty() || text.size() > 3) return false;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && out >= 0;
}
}  // namespace

CudaVersion CudaVersion::parse(std::string_view text) {
  CudaVersion v;
  const auto dot = text.find('.');
  const bool ok = dot == std::string_view::npos
                      ? parse_small_int(text, v.major)
                      : parse_small_int(text.substr(0, dot), v.major) &&
                            parse_small_int(text.substr(dot + 1), v.minor);
  if (!ok || v.major < 1 || v.minor > 99) {
    throw InputError("invalid CUDA version '" + quote_input(text) + "': expected MAJOR.MINOR, e.g. 13.0");
  }
  return v;
}

}  // namespace gpupack
