#pragma once
// A CUDA toolkit/driver version such as 13.0 or 13.1. MPS limits and features depend on it.
#include <compare>
#include <string>
#include <string_view>

namespace gpupack {

struct CudaVersion {
  int major = 0;
  int minor = 0;

  auto operator<=>(const CudaVersion&) const = default;
  std::string to_string() const { return std::to_string(major) + "." + std::to_string(minor); }

  // Parses "13", "13.0" or "13.1"; throws InputError naming the text otherwise.
  static CudaVersion parse(std::string_view text);
  // From the integer form used by CUDA and by `nvidia-cuda-mps-control -v` (13000 -> 13.0, 13010 -> 13.1).
  static CudaVersion from_int(int version) { return {version / 1000, (version % 1000) / 10}; }
};

// The CUDA version the defaults assume when the user names none (the device machine's, driver 580).
inline constexpr CudaVersion kDefaultCudaVersion{13, 0};

}  // namespace gpupack
