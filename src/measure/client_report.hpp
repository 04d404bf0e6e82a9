#pragma once
// The client report (docs/client-report.md): the JSON lines a measured program appends to the file named
// by GPUPACK_REPORT, so that gpupack sees its own requests (latency, throughput) and when it is warmed
// up, without touching its stdout. The reader is incremental (the file is read while the program writes
// it) and total: bad lines are counted, never thrown.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpupack::measure {

// The env var gpupack sets: the path of the file the program appends JSON lines to.
inline constexpr const char* kReportEnv = "GPUPACK_REPORT";
// Also set: GPUPACK_GO (a path; the program waits until it exists after writing its ready line, when set).
inline constexpr const char* kGoEnv = "GPUPACK_GO";
// The protocol version this reader understands (a line's "v"; a line without "v" is version 1).
inline constexpr int kReportVersion = 1;
// A line longer than this (without its '\n') is malformed; the rest of it is skipped.
inline constexpr std::size_t kMaxReportLineBytes = 4096;
// Bytes read from one report at most; what comes after is ignored (and said so).
inline constexpr std::size_t kMaxReportBytes = 256u << 20;

struct RequestSample {  // {"v":1,"event":"request","t":..,"latency_ms":..}
  double t = 0;
  double latency_ms = 0;
};
struct SummarySample {  // {"v":1,"event":"summary","t":..,"requests":..,"seconds":..,"p50_ms":..,"p99_ms":..}
  double t = 0;         // the end of the interval it covers: [t - seconds, t]
  long requests = 0;
  double seconds = 0;
  std::optional<double> p50_ms, p99_ms;
};
struct ClientReport {
  std::optional<double> ready_t;  // the first {"event":"ready"} line's t
  std::vector<RequestSample> requests;
  std::vector<SummarySample> summaries;
  long malformed_lines = 0;
  bool any_line = false;           // a complete line arrived (valid or not)
  bool over_size_limit = false;    // more than kMaxReportBytes were fed; the rest was ignored
  std::optional<std::string> first_error;  // what was wrong with the first malformed line (for messages)
};

// Parses the whole text; never throws on bad lines (counted in malformed_lines); a last line without '\n'
// is left for the next read.
class ClientReportReader {
 public:
  void feed(std::string_view chunk);
  const ClientReport& report() const { return report_; }

 private:
  void take_line(std::string_view line);
  void malformed(std::string why);
  ClientReport report_;
  std::string partial_;          // the unfinished last line
  bool skipping_long_ = false;   // inside an over-long line: drop bytes until its '\n'
  std::size_t fed_bytes_ = 0;
};

// Figures over a window [from, to] (seconds, in the program's own clock `t`, e.g. time.monotonic()):
// from the request lines completed in the window when there are any, else from the summaries whose
// interval's middle lies in it (their percentiles are then request-weighted means: an approximation).
struct ReportFigures {
  long requests = 0;
  double seconds = 0;
  double req_per_s = 0;
  std::optional<double> p50_ms, p99_ms;
  // From request lines only: the lowest and highest median latency over the window's whole seconds (each
  // with at least kSecondMinRequests requests, two seconds at least): a program whose speed moves within a
  // run (a virtual machine's host beneath it) against one that is steady within each run.
  std::optional<double> p50_second_low_ms, p50_second_high_ms;
};
inline constexpr int kSecondMinRequests = 3;
std::optional<ReportFigures> figures_in_window(const ClientReport&, double from, double to);

// The q-quantile (0..1) by linear interpolation between closest ranks (NumPy's default, type 7).
double quantile_of(std::vector<double> samples, double q);

}  // namespace gpupack::measure
