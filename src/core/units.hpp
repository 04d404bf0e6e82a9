#pragma once
// Sizes in bytes as people write them ("6GiB", "512MiB", "1.5GB"), parsed strictly: a positive number and
// a unit, nothing else. Binary units (KiB..TiB, or Kubernetes' Ki..Ti) are powers of 1024, decimal units
// (KB..TB) of 1000.
#include <cstdint>
#include <string>
#include <string_view>

namespace gpupack {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * kKiB;
inline constexpr std::uint64_t kGiB = 1024 * kMiB;
inline constexpr std::uint64_t kTiB = 1024 * kGiB;

// Throws InputError naming the text and the accepted form. A bare number without a unit is rejected:
// "6" could mean GiB or bytes, and guessing wrong by a factor of 10^9 is worse than asking.
std::uint64_t parse_size(std::string_view text);

// "1.5GiB", "512MiB", "80GiB": the largest binary unit that keeps at most two decimals.
std::string format_size(std::uint64_t bytes);

// Bytes of `gib` GiB, rounded down to a whole MiB (catalog memory is given in GiB with two decimals).
std::uint64_t gib_to_bytes(double gib);

}  // namespace gpupack
