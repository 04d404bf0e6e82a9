#include "measure/colocation_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "core/sharing.hpp"

namespace gpupack::measure {

namespace {

using Json = nlohmann::ordered_json;

template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json copy_json(const CopyResult& c) {
  return Json{{"exit_code", c.exit_code},       {"stopped", c.stopped},
              {"wall_s", c.wall_s},             {"reported", c.reported},
              {"requests", c.requests},         {"req_per_s", optional_json(c.req_per_s)},
              {"p50_ms", optional_json(c.p50_ms)}, {"p99_ms", optional_json(c.p99_ms)},
              {"malformed_lines", c.malformed_lines}, {"first_gpu_s", optional_json(c.first_gpu_s)},
              {"gpu_s", optional_json(c.gpu_s)},   {"gpu_memory_bytes", optional_json(c.gpu_memory_bytes)},
              {"host_cpu_cores", optional_json(c.host_cpu_cores)}};
}

// {"2": x, "4": y}: keys as strings, the shape the calibration's curves use too.
Json curve_json(const std::vector<CurvePoint>& points) {
  Json out = Json::object();
  for (const auto& p : points) out[std::to_string(p.k)] = p.value;
  return out;
}

template <typename T>
T field(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) throw std::runtime_error(where + ": missing field '" + key + "'");
  // Numbers as JSON numbers only, whole numbers never from a float (1e30 into an integer is undefined
  // behaviour) and within their type, doubles finite.
  if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) throw std::runtime_error(where + ": field '" + key + "' must be true or false");
  } else if constexpr (std::is_integral_v<T>) {
    bool fits = false;
    if (it->is_number_unsigned()) {
      fits = std::in_range<T>(it->template get<std::uint64_t>());
    } else if (it->is_number_integer()) {
      fits = std::in_range<T>(it->template get<std::int64_t>());
    }
    if (!fits) throw std::runtime_error(where + ": field '" + key + "' must be a whole number in range");
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!it->is_number() || !std::isfinite(it->template get<double>())) {
      throw std::runtime_error(where + ": field '" + key + "' must be a finite number");
    }
  }
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(where + ": field '" + key + "' has the wrong type");
  }
}

template <typename T>
std::optional<T> optional_field(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return field<T>(j, key, where);
}

// A GPM share (0..1 of the GPU's SMs or DRAM bandwidth); none when absent or null.
std::optional<double> optional_share(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto v = optional_field<double>(j, key, where);
  if (v && (*v < 0 || *v > 1)) throw std::runtime_error(where + ": field '" + key + "' must be a share from 0 to 1");
  return v;
}

CopyResult copy_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw std::runtime_error(where + ": not an object");
  CopyResult c;
  c.exit_code = field<int>(j, "exit_code", where);
  c.stopped = field<bool>(j, "stopped", where);
  c.wall_s = field<double>(j, "wall_s", where);
  c.reported = field<bool>(j, "reported", where);
  c.requests = field<long>(j, "requests", where);
  c.req_per_s = optional_field<double>(j, "req_per_s", where);
  c.p50_ms = optional_field<double>(j, "p50_ms", where);
  c.p99_ms = optional_field<double>(j, "p99_ms", where);
  c.malformed_lines = field<long>(j, "malformed_lines", where);
  // Added later in the same schema version: absent in older files.
  c.first_gpu_s = optional_field<double>(j, "first_gpu_s", where);
  c.gpu_s = optional_field<double>(j, "gpu_s", where);
  c.gpu_memory_bytes = optional_field<std::uint64_t>(j, "gpu_memory_bytes", where);
  c.host_cpu_cores = optional_field<double>(j, "host_cpu_cores", where);
  if (c.host_cpu_cores && *c.host_cpu_cores < 0) throw std::runtime_error(where + ": field 'host_cpu_cores' must be >= 0");
  return c;
}

// One figure of every copy; none when the cell failed or a copy lacks it.
template <typename F>
std::optional<std::vector<double>> per_copy(const GridCell& cell, F figure) {
  if (cell.copies.empty() || !cell.error.empty()) return std::nullopt;
  std::vector<double> out;
  for (const auto& c : cell.copies) {
    const std::optional<double> v = figure(c);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<double> median_over_copies(const std::optional<std::vector<double>>& sorted) {
  if (!sorted) return std::nullopt;
  const auto& v = *sorted;
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::optional<int> optional_cores(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto v = optional_field<int>(j, key, where);
  if (v && *v < 1) throw std::runtime_error(where + ": field '" + key + "' must be a whole number >= 1");
  return v;
}

bool usable(const GridCell& c) { return c.error.empty() && !c.copies.empty(); }

template <typename F>
std::vector<CurvePoint> curve_over_k(const ColocationGrid& grid, const std::string& mode, F value) {
  std::vector<CurvePoint> out;
  for (const auto& c : grid.cells) {
    if (c.mode != mode || c.with_neighbour || !usable(c)) continue;
    if (const auto v = value(c)) out.push_back({c.k, *v});
  }
  std::sort(out.begin(), out.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.k < b.k; });
  return out;
}

std::vector<CurvePoint> relative_to_k1(std::vector<CurvePoint> points) {
  const auto one = std::find_if(points.begin(), points.end(), [](const CurvePoint& p) { return p.k == 1; });
  if (one == points.end() || one->value <= 0) return {};
  const double base = one->value;
  for (auto& p : points) p.value /= base;
  return points;
}

}  // namespace

std::string cell_label(const GridCell& cell) {
  if (cell.with_neighbour && cell.k == 0) return cell.mode + " neighbour alone";
  std::string label = cell.mode + " K=" + std::to_string(cell.k);
  if (cell.with_neighbour) {
    label += cell.neighbour_cap ? " + neighbour at " + std::to_string(*cell.neighbour_cap) + "%" : " + neighbour";
  }
  return label;
}

bool latency_reported(const GridCell& cell) {
  if (!usable(cell)) return false;
  return std::all_of(cell.copies.begin(), cell.copies.end(), [](const CopyResult& c) { return c.req_per_s.has_value(); });
}

std::optional<double> aggregate_req_per_s(const GridCell& cell) {
  if (!latency_reported(cell)) return std::nullopt;
  double sum = 0;
  for (const auto& c : cell.copies) sum += *c.req_per_s;
  return sum;
}

std::optional<double> worst_p99_ms(const GridCell& cell) {
  if (!usable(cell)) return std::nullopt;
  std::optional<double> worst;
  for (const auto& c : cell.copies) {
    if (!c.p99_ms) return std::nullopt;
    worst = std::max(worst.value_or(0.0), *c.p99_ms);
  }
  return worst;
}

std::optional<double> median_p50_ms(const GridCell& cell) {
  return median_over_copies(per_copy(cell, [](const CopyResult& c) { return c.p50_ms; }));
}

std::optional<double> worst_p50_ms(const GridCell& cell) {
  const auto v = per_copy(cell, [](const CopyResult& c) { return c.p50_ms; });
  return v ? std::optional<double>(v->back()) : std::nullopt;
}

std::optional<double> median_p99_ms(const GridCell& cell) {
  return median_over_copies(per_copy(cell, [](const CopyResult& c) { return c.p99_ms; }));
}

std::optional<double> copies_host_cpu_cores(const GridCell& cell) {
  const auto v = per_copy(cell, [](const CopyResult& c) { return c.host_cpu_cores; });
  if (!v) return std::nullopt;
  double sum = 0;
  for (double x : *v) sum += x;
  return sum;
}

double mean_wall_s(const GridCell& cell) {
  if (cell.copies.empty()) return 0;
  double sum = 0;
  for (const auto& c : cell.copies) sum += c.wall_s;
  return sum / static_cast<double>(cell.copies.size());
}

std::optional<double> mean_gpu_s(const GridCell& cell) {
  if (cell.copies.empty()) return std::nullopt;
  double sum = 0;
  for (const auto& c : cell.copies) {
    if (!c.gpu_s) return std::nullopt;
    sum += *c.gpu_s;
  }
  return sum / static_cast<double>(cell.copies.size());
}

std::optional<double> neighbour_fraction(const ColocationGrid& grid, const GridCell& cell) {
  if (!cell.with_neighbour || cell.k == 0 || !cell.error.empty() || !cell.neighbour || !cell.neighbour->req_per_s) {
    return std::nullopt;
  }
  for (const auto& alone : grid.cells) {
    if (alone.with_neighbour && alone.k == 0 && alone.error.empty() && alone.neighbour && alone.neighbour->req_per_s &&
        *alone.neighbour->req_per_s > 0) {
      return *cell.neighbour->req_per_s / *alone.neighbour->req_per_s;
    }
  }
  return std::nullopt;
}

const GridCell* find_cell(const ColocationGrid& grid, const std::string& mode, int k) {
  for (const auto& c : grid.cells) {
    if (c.mode == mode && c.k == k && !c.with_neighbour && usable(c)) return &c;
  }
  return nullptr;
}

std::vector<CurvePoint> aggregate_req_per_s_curve(const ColocationGrid& grid, const std::string& mode) {
  return curve_over_k(grid, mode, aggregate_req_per_s);
}

std::vector<CurvePoint> aggregate_curve(const ColocationGrid& grid, const std::string& mode) {
  return relative_to_k1(aggregate_req_per_s_curve(grid, mode));
}

std::vector<CurvePoint> p99_curve(const ColocationGrid& grid, const std::string& mode) {
  return curve_over_k(grid, mode, worst_p99_ms);
}

std::vector<CurvePoint> host_cpu_curve(const ColocationGrid& grid, const std::string& mode) {
  return curve_over_k(grid, mode, copies_host_cpu_cores);
}

std::vector<CurvePoint> wall_curve(const ColocationGrid& grid, const std::string& mode) {
  // Only where the copies ran to their own end: a copy gpupack stopped has a wall time of the window.
  return relative_to_k1(curve_over_k(grid, mode, [](const GridCell& c) -> std::optional<double> {
    for (const auto& copy : c.copies) {
      if (copy.stopped) return std::nullopt;
    }
    return mean_wall_s(c);
  }));
}

std::vector<CurvePoint> gpu_time_curve(const ColocationGrid& grid, const std::string& mode) {
  // As the wall curve, without start-up: a fixed amount of work's time on the GPU, K copies over one.
  return relative_to_k1(curve_over_k(grid, mode, [](const GridCell& c) -> std::optional<double> {
    for (const auto& copy : c.copies) {
      if (copy.stopped) return std::nullopt;
    }
    return mean_gpu_s(c);
  }));
}

std::vector<std::string> grid_modes(const ColocationGrid& grid) {
  std::vector<std::string> modes;
  for (const auto& c : grid.cells) {
    if (std::find(modes.begin(), modes.end(), c.mode) == modes.end()) modes.push_back(c.mode);
  }
  return modes;
}

nlohmann::ordered_json to_json(const ColocationGrid& grid) {
  Json cells = Json::array();
  for (const auto& c : grid.cells) {
    Json copies = Json::array();
    for (const auto& copy : c.copies) copies.push_back(copy_json(copy));
    cells.push_back(Json{{"mode", c.mode},
                         {"k", c.k},
                         {"with_neighbour", c.with_neighbour},
                         {"neighbour_cap", optional_json(c.neighbour_cap)},
                         {"window_s", c.window_s},
                         {"error", c.error},
                         {"latency_reported", latency_reported(c)},
                         {"aggregate_req_per_s", optional_json(aggregate_req_per_s(c))},
                         {"worst_p99_ms", optional_json(worst_p99_ms(c))},
                         {"median_p50_ms", optional_json(median_p50_ms(c))},
                         {"worst_p50_ms", optional_json(worst_p50_ms(c))},
                         {"median_p99_ms", optional_json(median_p99_ms(c))},
                         {"host_cpu_cores", optional_json(copies_host_cpu_cores(c))},
                         {"mean_wall_s", mean_wall_s(c)},
                         {"mean_gpu_s", optional_json(mean_gpu_s(c))},
                         {"neighbour_fraction", optional_json(neighbour_fraction(grid, c))},
                         {"gpu_sm_active", optional_json(c.gpu_sm_active)},
                         {"gpu_sm_occupancy", optional_json(c.gpu_sm_occupancy)},
                         {"gpu_dram_bw", optional_json(c.gpu_dram_bw)},
                         {"copies", copies},
                         {"neighbour", c.neighbour ? copy_json(*c.neighbour) : Json(nullptr)}});
  }
  Json curves = Json::object();
  for (const auto& mode : grid_modes(grid)) {
    curves[mode] = Json{{"aggregate_req_per_s", curve_json(aggregate_req_per_s_curve(grid, mode))},
                        {"aggregate_vs_k1", curve_json(aggregate_curve(grid, mode))},
                        {"p99_ms", curve_json(p99_curve(grid, mode))},
                        {"wall_vs_k1", curve_json(wall_curve(grid, mode))},
                        {"gpu_time_vs_k1", curve_json(gpu_time_curve(grid, mode))},
                        {"host_cpu_cores", curve_json(host_cpu_curve(grid, mode))}};
  }
  return Json{{"command", grid.command},
              {"neighbour_command", grid.neighbour_command.empty() ? Json(nullptr) : Json(grid.neighbour_command)},
              {"window_s", grid.window_s},
              {"node_cores", optional_json(grid.node_cores)},
              {"usable_cores", optional_json(grid.usable_cores)},
              {"cells", cells},
              {"curves", curves}};
}

ColocationGrid colocation_grid_from_json(const nlohmann::json& j) {
  const std::string where = "colocation";
  if (!j.is_object()) throw std::runtime_error(where + ": not an object");
  ColocationGrid grid;
  grid.command = field<std::string>(j, "command", where);
  grid.neighbour_command = optional_field<std::string>(j, "neighbour_command", where).value_or("");
  grid.window_s = field<double>(j, "window_s", where);
  grid.node_cores = optional_cores(j, "node_cores", where);  // added later: absent in older files
  grid.usable_cores = optional_cores(j, "usable_cores", where);
  const auto cells = j.find("cells");
  if (cells == j.end() || !cells->is_array()) throw std::runtime_error(where + ": 'cells' must be an array");
  for (size_t i = 0; i < cells->size(); ++i) {
    const auto& cj = (*cells)[i];
    const std::string at = where + ".cells[" + std::to_string(i) + "]";
    if (!cj.is_object()) throw std::runtime_error(at + ": not an object");
    GridCell c;
    c.mode = field<std::string>(cj, "mode", at);
    // A sharing read in either spelling ("time-slicing" too) is kept under its measurement key, the one
    // the grid's writers and readers look modes up by.
    if (const auto sharing = parse_measured_sharing(c.mode)) c.mode = measurement_key(*sharing);
    c.k = field<int>(cj, "k", at);
    c.with_neighbour = field<bool>(cj, "with_neighbour", at);
    c.neighbour_cap = optional_field<int>(cj, "neighbour_cap", at);
    c.window_s = field<double>(cj, "window_s", at);
    c.error = field<std::string>(cj, "error", at);
    c.gpu_sm_active = optional_share(cj, "gpu_sm_active", at);  // added later: absent in older files
    c.gpu_sm_occupancy = optional_share(cj, "gpu_sm_occupancy", at);
    c.gpu_dram_bw = optional_share(cj, "gpu_dram_bw", at);
    const auto copies = cj.find("copies");
    if (copies == cj.end() || !copies->is_array()) throw std::runtime_error(at + ": 'copies' must be an array");
    for (size_t n = 0; n < copies->size(); ++n) {
      c.copies.push_back(copy_from_json((*copies)[n], at + ".copies[" + std::to_string(n) + "]"));
    }
    if (const auto nb = cj.find("neighbour"); nb != cj.end() && !nb->is_null()) {
      c.neighbour = copy_from_json(*nb, at + ".neighbour");
    }
    grid.cells.push_back(std::move(c));
  }
  return grid;
}

}  // namespace gpupack::measure
