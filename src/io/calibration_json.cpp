#include "io/calibration_json.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <string>

#include "core/errors.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

double positive(const json& v, const std::string& where, const std::string& source) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0) {
    throw InputError(source + ": calibration field " + where + " must be a positive number, got " + v.dump());
  }
  return v.get<double>();
}

template <size_t N>
void read_points(const json& cal, const char* field, const std::array<int, N>& keys, std::array<double, N>& out,
                 const std::string& source) {
  if (!cal.contains(field)) return;
  const json& obj = cal.at(field);
  if (!obj.is_object()) {
    throw InputError(source + ": calibration field " + field + " must be an object keyed by " +
                     std::to_string(keys.front()) + "/" + std::to_string(keys[1]) + "/" + std::to_string(keys.back()));
  }
  for (size_t i = 0; i < N; ++i) {
    const std::string key = std::to_string(keys[i]);
    if (obj.contains(key)) out[i] = positive(obj.at(key), std::string(field) + "." + key, source);
  }
}

}  // namespace

Calibration parse_calibration_json(std::string_view text, std::string_view source_view, Calibration c) {
  const std::string source(source_view);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(source + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (!doc.is_object() || !doc.contains("calibration") || !doc.at("calibration").is_object()) {
    throw InputError(source + ": no \"calibration\" object; write one with gpupack bench --json FILE");
  }
  const json& cal = doc.at("calibration");
  if (cal.contains("timeslicing_p99_inflation")) {
    c.timeslicing_p99_inflation = positive(cal.at("timeslicing_p99_inflation"), "timeslicing_p99_inflation", source);
  }
  if (cal.contains("mps_p99_inflation")) {
    c.mps_p99_inflation = positive(cal.at("mps_p99_inflation"), "mps_p99_inflation", source);
  }
  read_points(cal, "mps_capped_p99_inflation", kCalibrationCaps, c.mps_capped_p99_inflation, source);
  read_points(cal, "mps_capped_neighbour_throughput", kCalibrationCaps, c.mps_capped_neighbour_throughput, source);
  read_points(cal, "timeslicing_slowdown", kCalibrationClients, c.timeslicing_slowdown, source);
  read_points(cal, "mps_slowdown", kCalibrationClients, c.mps_slowdown, source);
  return c;
}

}  // namespace gpupack
