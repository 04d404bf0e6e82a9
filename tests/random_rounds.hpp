#pragma once
// How many rounds a random-property test runs in this build. Under AddressSanitizer (.ci/run's clang build
// at -O0 with ASan, UBSan and libFuzzer's coverage) a plan takes about 100 times as long as in Release, so
// there a test runs its first `sanitized` rounds (the same seeds), for the sanitizers to see their memory
// accesses; every other build, the Release build whose ctest CI runs first included, runs all `full`.

namespace gpupack::test {

#if defined(__SANITIZE_ADDRESS__)  // gcc
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

constexpr int random_rounds(int full, int sanitized) { return kAddressSanitizer ? sanitized : full; }

}  // namespace gpupack::test
