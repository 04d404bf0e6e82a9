#pragma once
// Whether this run reproduces the lab's findings (seeds/003, reference/mps.md). Each verdict names what
// was measured and what was expected; parts that did not run are "skipped", never "pass".
#include <string>
#include <vector>

#include "bench/results.hpp"

namespace gpupack::bench {

enum class Outcome { pass, fail, skipped };
const char* to_string(Outcome outcome);

struct Verdict {
  std::string id;        // stable: streams_concurrency, timeslicing_contention, ...
  std::string finding;   // the lab's claim, in words
  std::string expected;  // the threshold
  std::string measured;  // what this run saw ("" when skipped)
  Outcome outcome = Outcome::skipped;
};

// Thresholds from the lab's grading.
inline constexpr double kMinStreamSpeedup = 1.05;
inline constexpr double kMinContention = 1.2, kMaxContention = 3.5;
inline constexpr double kCapTolerance = 0.10;

std::vector<Verdict> verdicts(const BenchResults& results);
bool any_failed(const std::vector<Verdict>& verdicts);

}  // namespace gpupack::bench
