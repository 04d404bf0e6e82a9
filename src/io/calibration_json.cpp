#include "io/calibration_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/json_document.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

// What each field can be (docs/bench-schema.md). Inflations and slowdowns are ratios of a time with
// neighbours over the time alone: a neighbour never makes a client faster, so below 1 only by
// measurement noise (5 % allowed). A throughput fraction is a share of the throughput alone: (0, 1],
// again with 5 % of noise above 1.
struct Range {
  double lo;
  bool lo_inclusive;
  double hi;
  const char* meaning;
};
constexpr Range kRatio{0.95, true, 1000, "a ratio of a time beside neighbours over the time alone: 0.95 to 1000"};
constexpr Range kFraction{0, false, 1.05, "a fraction of the throughput alone: above 0 and at most 1.05"};

double value_in(const json& v, const Range& r, const std::string& where, const std::string& source) {
  const bool number = v.is_number() && std::isfinite(v.get<double>());
  const double x = number ? v.get<double>() : 0;
  if (!number || (r.lo_inclusive ? x < r.lo : x <= r.lo) || x > r.hi) {
    throw InputError(source + ": calibration field " + where + " must be " + r.meaning + ", got " +
                     quote_input(v.dump(), 40));
  }
  return x;
}

template <size_t N>
void read_points(const json& cal, const char* field, const std::array<int, N>& keys, const Range& range,
                 std::array<double, N>& out, const std::string& source) {
  if (!cal.contains(field)) return;
  const json& obj = cal.at(field);
  std::string accepted;
  for (int k : keys) accepted += (accepted.empty() ? "" : ", ") + std::to_string(k);
  if (!obj.is_object()) {
    throw InputError(source + ": calibration field " + field + " must be an object keyed by " + accepted);
  }
  for (const auto& [key, value] : obj.items()) {
    size_t i = 0;
    while (i < N && std::to_string(keys[i]) != key) ++i;
    if (i == N) {
      throw InputError(source + ": unknown key " + field + "." + quote_input(key, 40) + " in the calibration; accepted: " +
                       accepted);
    }
    out[i] = value_in(value, range, std::string(field) + "." + key, source);
  }
}

const char* const kFields[] = {"timeslicing_p99_inflation",       "mps_p99_inflation",   "mps_capped_p99_inflation",
                               "mps_capped_neighbour_throughput", "timeslicing_slowdown", "mps_slowdown"};

}  // namespace

Calibration parse_calibration_json(std::string_view text, std::string_view source_view, Calibration c) {
  const std::string source(source_view);
  const json doc = parse_json_document(text, source, "give the file gpupack bench --json FILE wrote");
  if (!doc.is_object() || !doc.contains("calibration") || !doc.at("calibration").is_object()) {
    throw InputError(source + ": no \"calibration\" object; write one with gpupack bench --json FILE");
  }
  const json& cal = doc.at("calibration");
  // The rest of a bench file is free-form results; the calibration object is the planner's contract.
  for (const auto& [key, value] : cal.items()) {
    if (std::find(std::begin(kFields), std::end(kFields), key) == std::end(kFields)) {
      std::string accepted;
      for (const char* f : kFields) accepted += (accepted.empty() ? "" : ", ") + std::string(f);
      throw InputError(source + ": unknown calibration field '" + quote_input(key, 60) + "'; accepted: " + accepted);
    }
  }
  if (cal.contains("timeslicing_p99_inflation")) {
    c.timeslicing_p99_inflation = value_in(cal.at("timeslicing_p99_inflation"), kRatio, "timeslicing_p99_inflation", source);
  }
  if (cal.contains("mps_p99_inflation")) {
    c.mps_p99_inflation = value_in(cal.at("mps_p99_inflation"), kRatio, "mps_p99_inflation", source);
  }
  read_points(cal, "mps_capped_p99_inflation", kCalibrationCaps, kRatio, c.mps_capped_p99_inflation, source);
  read_points(cal, "mps_capped_neighbour_throughput", kCalibrationCaps, kFraction, c.mps_capped_neighbour_throughput,
              source);
  read_points(cal, "timeslicing_slowdown", kCalibrationClients, kRatio, c.timeslicing_slowdown, source);
  read_points(cal, "mps_slowdown", kCalibrationClients, kRatio, c.mps_slowdown, source);
  return c;
}

}  // namespace gpupack
