// libFuzzer target: any bytes as a client report (src/measure/client_report.hpp), fed in two chunks
// split where the first byte says. The reader is total: it must never throw, and what it keeps must be
// what the protocol allows (finite times and latencies, non-negative counts).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "measure/client_report.hpp"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "client_report_fuzz: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t split = std::min<size_t>(data[0], text.size());
  gpupack::measure::ClientReportReader reader;
  reader.feed(text.substr(0, split));
  reader.feed(text.substr(split));
  const auto& r = reader.report();
  require(r.malformed_lines >= 0, "a negative malformed-line count");
  for (const auto& q : r.requests) require(std::isfinite(q.t) && std::isfinite(q.latency_ms), "a non-finite request");
  for (const auto& s : r.summaries) require(std::isfinite(s.t) && std::isfinite(s.seconds) && s.requests >= 0, "a bad summary");
  return 0;
}
