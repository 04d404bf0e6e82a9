#include "measure/client_report.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace gpupack::measure {

namespace {

using Json = nlohmann::json;

// A finite, non-negative number field; nullopt when absent or not such a number.
std::optional<double> number_field(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

}  // namespace

void ClientReportReader::feed(std::string_view chunk) {
  if (report_.over_size_limit) return;
  if (fed_bytes_ + chunk.size() > kMaxReportBytes) {
    chunk = chunk.substr(0, kMaxReportBytes - fed_bytes_);
    report_.over_size_limit = true;
  }
  fed_bytes_ += chunk.size();
  while (!chunk.empty()) {
    const auto newline = chunk.find('\n');
    const std::string_view piece = chunk.substr(0, newline);
    if (skipping_long_) {
      if (newline != std::string_view::npos) skipping_long_ = false;
    } else if (partial_.size() + piece.size() > kMaxReportLineBytes) {
      malformed("a line longer than " + std::to_string(kMaxReportLineBytes) + " bytes");
      partial_.clear();
      report_.any_line = true;
      skipping_long_ = newline == std::string_view::npos;
    } else if (newline == std::string_view::npos) {
      partial_.append(piece);
    } else if (partial_.empty()) {
      take_line(piece);
    } else {
      partial_.append(piece);
      const std::string line = std::move(partial_);
      partial_.clear();
      take_line(line);
    }
    if (newline == std::string_view::npos) break;
    chunk.remove_prefix(newline + 1);
  }
}

void ClientReportReader::malformed(std::string why) {
  ++report_.malformed_lines;
  if (!report_.first_error) report_.first_error = std::move(why);
}

void ClientReportReader::take_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;  // blank lines are allowed
  report_.any_line = true;
  const Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return malformed("not a JSON object: " + std::string(line.substr(0, 80)));
  const auto v = j.find("v");
  if (v != j.end() && !(v->is_number_integer() && v->get<long>() == kReportVersion)) {
    return malformed("unknown version \"v\": " + v->dump() + " (this gpupack reads version " +
                     std::to_string(kReportVersion) + ")");
  }
  const auto event = j.find("event");
  if (event == j.end() || !event->is_string()) return malformed("no \"event\" string");
  const auto t = number_field(j, "t");
  if (!t) return malformed("no \"t\" (non-negative seconds on the program's monotonic clock)");
  const auto& name = event->get_ref<const std::string&>();
  if (name == "ready") {
    if (!report_.ready_t) report_.ready_t = *t;
  } else if (name == "request") {
    const auto latency = number_field(j, "latency_ms");
    if (!latency) return malformed("a request line without a non-negative \"latency_ms\"");
    report_.requests.push_back({*t, *latency});
  } else if (name == "summary") {
    SummarySample s;
    s.t = *t;
    const auto requests = j.find("requests");
    const auto seconds = number_field(j, "seconds");
    if (requests == j.end() || !requests->is_number_integer() || requests->get<long>() < 0 || !seconds || *seconds <= 0) {
      return malformed("a summary line needs \"requests\" (an integer >= 0) and \"seconds\" (> 0)");
    }
    s.requests = requests->get<long>();
    s.seconds = *seconds;
    s.p50_ms = number_field(j, "p50_ms");
    s.p99_ms = number_field(j, "p99_ms");
    report_.summaries.push_back(s);
  }
  // Other events are ignored: later versions of the protocol may add some.
}

double quantile_of(std::vector<double> samples, double q) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(samples.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const std::size_t upper = std::min(lower + 1, samples.size() - 1);
  return samples[lower] + (position - static_cast<double>(lower)) * (samples[upper] - samples[lower]);
}

namespace {

std::optional<ReportFigures> figures_from_requests(const ClientReport& r, double from, double to) {
  std::vector<double> latencies;
  for (const auto& q : r.requests) {
    if (q.t >= from && q.t <= to) latencies.push_back(q.latency_ms);
  }
  if (latencies.empty()) return std::nullopt;
  ReportFigures f;
  f.requests = static_cast<long>(latencies.size());
  f.seconds = to - from;
  f.req_per_s = static_cast<double>(f.requests) / f.seconds;
  f.p50_ms = quantile_of(latencies, 0.50);
  f.p99_ms = quantile_of(std::move(latencies), 0.99);
  // Per whole second of the window: the median latency of the requests that ended in it.
  const int whole_seconds = static_cast<int>(std::floor(to - from));
  std::vector<std::vector<double>> by_second(static_cast<std::size_t>(std::max(0, whole_seconds)));
  for (const auto& q : r.requests) {
    if (q.t < from || q.t >= from + whole_seconds) continue;
    by_second[static_cast<std::size_t>(std::floor(q.t - from))].push_back(q.latency_ms);
  }
  std::vector<double> medians;
  for (auto& second : by_second) {
    if (static_cast<int>(second.size()) >= kSecondMinRequests) medians.push_back(quantile_of(std::move(second), 0.50));
  }
  if (medians.size() >= 2) {
    const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
    f.p50_second_low_ms = *lo;
    f.p50_second_high_ms = *hi;
  }
  return f;
}

// Request-weighted mean of one percentile over the summaries that report it.
std::optional<double> weighted(const std::vector<const SummarySample*>& in, std::optional<double> SummarySample::*field) {
  double sum = 0, weight = 0;
  for (const auto* s : in) {
    if (!(s->*field) || s->requests == 0) continue;
    sum += *(s->*field) * static_cast<double>(s->requests);
    weight += static_cast<double>(s->requests);
  }
  return weight > 0 ? std::optional<double>(sum / weight) : std::nullopt;
}

std::optional<ReportFigures> figures_from_summaries(const ClientReport& r, double from, double to) {
  std::vector<const SummarySample*> in;
  for (const auto& s : r.summaries) {
    const double middle = s.t - s.seconds / 2;
    if (middle >= from && middle <= to) in.push_back(&s);
  }
  if (in.empty()) return std::nullopt;
  ReportFigures f;
  for (const auto* s : in) {
    f.requests += s->requests;
    f.seconds += s->seconds;
  }
  f.req_per_s = static_cast<double>(f.requests) / f.seconds;
  f.p50_ms = weighted(in, &SummarySample::p50_ms);
  f.p99_ms = weighted(in, &SummarySample::p99_ms);
  return f;
}

}  // namespace

std::optional<ReportFigures> figures_in_window(const ClientReport& r, double from, double to) {
  if (!(to > from)) return std::nullopt;
  if (auto f = figures_from_requests(r, from, to)) return f;
  return figures_from_summaries(r, from, to);
}

}  // namespace gpupack::measure
