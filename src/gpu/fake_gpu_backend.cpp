#include "gpu/fake_gpu_backend.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "gpu/nvml_api.hpp"
#include "io/input_file.hpp"
#include "io/json_document.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& field, const char* accepted, const json& v) {
  throw InputError("fake GPU machine: " + field + " must be " + accepted + ", got " + quote_input(v.dump(), 40));
}

// Reads an optional field of type T, naming the field in the error when its type or range is wrong. A
// whole number is never converted from a float or from a negative number (nlohmann would wrap -5 to
// 2^64-5 and make 1e30 undefined behaviour); a double is finite.
template <typename T>
std::optional<T> field(const json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  const json& v = j.at(key);
  const std::string name = where + "." + key;
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) refuse(name, "true or false", v);
  } else if constexpr (std::is_integral_v<T>) {
    const bool fits = v.is_number_unsigned() ? std::in_range<T>(v.get<std::uint64_t>())
                                             : v.is_number_integer() && std::in_range<T>(v.get<std::int64_t>());
    if (!fits) refuse(name, "a whole number >= 0 within range", v);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) refuse(name, "a finite number", v);
  } else {
    if (!v.is_string()) refuse(name, "a string", v);
  }
  return v.get<T>();
}

// A sample series: a number or an array of numbers.
std::vector<double> series(const json& j, const char* key, const std::string& where) {
  if (!j.contains(key)) return {};
  const json& v = j.at(key);
  if (v.is_number()) return {v.get<double>()};
  if (!v.is_array()) throw InputError("fake GPU machine: " + where + "." + key + " must be a number or an array of numbers");
  std::vector<double> out;
  for (const auto& x : v) {
    if (!x.is_number()) throw InputError("fake GPU machine: " + where + "." + key + " must hold numbers only");
    out.push_back(x.get<double>());
  }
  return out;
}

// A series of byte counts: each a number from 0 to below 2^64 (converted to uint64 when sampled).
std::vector<double> bytes_series(const json& j, const char* key, const std::string& where) {
  std::vector<double> out = series(j, key, where);
  for (double v : out) {
    if (!(v >= 0 && v < 18446744073709551616.0)) refuse(where + "." + key, "byte counts from 0 to below 2^64", j.at(key));
  }
  return out;
}

// A device or MIG UUID, which the agent and `gpupack mps` put in paths (<mps_root>/<uuid>/pipe): letters,
// digits, '-' and '_' only (what NVML reports: GPU-xxxxxxxx-..., MIG-...), so never "../" or '/'.
std::string uuid_field(const json& j, const std::string& where) {
  const std::string uuid = field<std::string>(j, "uuid", where).value_or("");
  const bool clean = !uuid.empty() && uuid.size() < nvml::kDeviceUuidBufferSize &&
                     std::all_of(uuid.begin(), uuid.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; });
  if (!uuid.empty() && !clean) refuse(where + ".uuid", "a GPU or MIG UUID (letters, digits, '-' and '_', at most 95 bytes)", j.at("uuid"));
  return uuid;
}

double sample(const std::vector<double>& s, std::size_t i) { return s[std::min(i, s.size() - 1)]; }

std::optional<double> sample_if_any(const std::vector<double>& s, std::size_t i) {
  return s.empty() ? std::nullopt : std::optional<double>(sample(s, i));
}

// A ratio (0..1) or a series of them.
std::vector<double> ratio_series(const json& j, const char* key, const std::string& where) {
  std::vector<double> out = series(j, key, where);
  for (double v : out) {
    if (!(v >= 0 && v <= 1)) throw InputError("fake GPU machine: " + where + "." + key + " must be a ratio between 0 and 1");
  }
  return out;
}

std::optional<double> ratio_field(const json& j, const char* key, const std::string& where) {
  const auto v = field<double>(j, key, where);
  if (v && !(*v >= 0 && *v <= 1)) throw InputError("fake GPU machine: " + where + "." + key + " must be a ratio between 0 and 1");
  return v;
}

GpuProcessInfo parse_process(const json& p, const std::string& where) {
  GpuProcessInfo info;
  const auto pid = field<unsigned>(p, "pid", where);
  if (!pid) throw InputError("fake GPU machine: " + where + " has no pid");
  info.pid = *pid;
  info.used_memory_bytes = field<std::uint64_t>(p, "used_memory_bytes", where);
  info.mps_client = field<bool>(p, "mps_client", where).value_or(false);
  info.gpu_instance_id = field<unsigned>(p, "gpu_instance_id", where);
  info.compute_instance_id = field<unsigned>(p, "compute_instance_id", where);
  info.sm_utilization = ratio_field(p, "sm_utilization", where);
  info.memory_utilization = ratio_field(p, "memory_utilization", where);
  return info;
}

MigInstanceInfo parse_mig(const json& m, const std::string& where) {
  MigInstanceInfo mig;
  mig.uuid = uuid_field(m, where);
  if (mig.uuid.empty()) throw InputError("fake GPU machine: " + where + " has no uuid");
  mig.gpu_instance_id = field<unsigned>(m, "gpu_instance_id", where).value_or(0);
  mig.compute_instance_id = field<unsigned>(m, "compute_instance_id", where).value_or(0);
  mig.profile_id = field<unsigned>(m, "profile_id", where);
  mig.profile = field<std::string>(m, "profile", where).value_or("");
  mig.placement_start = field<unsigned>(m, "placement_start", where);
  mig.placement_size = field<unsigned>(m, "placement_size", where);
  mig.memory_total_bytes = field<std::uint64_t>(m, "memory_total_bytes", where);
  mig.memory_used_bytes = field<std::uint64_t>(m, "memory_used_bytes", where);
  return mig;
}

}  // namespace

std::optional<FakeGpuBackend::GpmSeries> FakeGpuBackend::parse_gpm(const json& owner, const std::string& where) {
  if (!owner.contains("gpm")) return std::nullopt;
  const json& g = owner.at("gpm");
  const std::string at = where + ".gpm";
  if (!g.is_object()) throw InputError("fake GPU machine: " + at + " must be an object");
  GpmSeries s;
  s.sm_active = ratio_series(g, "sm_active", at);
  s.sm_occupancy = ratio_series(g, "sm_occupancy", at);
  s.tensor_active = ratio_series(g, "tensor_active", at);
  s.dram_bw = ratio_series(g, "dram_bw", at);
  s.interval_seconds = field<double>(g, "interval_seconds", at).value_or(1.0);
  if (!(s.interval_seconds > 0)) throw InputError("fake GPU machine: " + at + ".interval_seconds must be positive");
  return s;
}

std::optional<GpmActivity> FakeGpuBackend::gpm_at(const std::optional<GpmSeries>& s, std::size_t snapshot) {
  if (!s || snapshot == 0) return std::nullopt;  // GPM needs two samples: none in the first snapshot
  GpmActivity a;
  a.sm_active = sample_if_any(s->sm_active, snapshot - 1);
  a.sm_occupancy = sample_if_any(s->sm_occupancy, snapshot - 1);
  a.tensor_active = sample_if_any(s->tensor_active, snapshot - 1);
  a.dram_bw = sample_if_any(s->dram_bw, snapshot - 1);
  a.interval_seconds = s->interval_seconds;
  return a;
}

FakeGpuBackend::FakeGpuBackend(const json& machine) {
  if (!machine.is_object()) throw InputError("fake GPU machine: the top level must be an object");
  driver_ = field<std::string>(machine, "driver_version", "machine");
  const json devices = machine.value("devices", json::array());
  if (!devices.is_array()) throw InputError("fake GPU machine: devices must be an array");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const json& d = devices[i];
    const std::string where = "devices[" + std::to_string(i) + "]";
    GpuDeviceInfo dev;
    dev.index = static_cast<unsigned>(i);
    dev.uuid = uuid_field(d, where);
    dev.name = field<std::string>(d, "name", where).value_or("");
    if (dev.uuid.empty() || dev.name.empty()) throw InputError("fake GPU machine: " + where + " needs uuid and name");
    dev.memory_total_bytes = field<std::uint64_t>(d, "memory_total_bytes", where);
    dev.memory_used_bytes = field<std::uint64_t>(d, "memory_used_bytes", where);
    dev.compute_mode = field<std::string>(d, "compute_mode", where);
    dev.mig_enabled = field<bool>(d, "mig_enabled", where);
    Series s;
    for (const auto& m : d.value("mig_instances", json::array())) {
      dev.mig_instances.push_back(parse_mig(m, where + ".mig_instances"));
      s.mig_gpm.push_back(parse_gpm(m, where + ".mig_instances"));
    }
    for (const auto& p : d.value("processes", json::array())) dev.processes.push_back(parse_process(p, where + ".processes"));
    s.gpm = parse_gpm(d, where);
    s.utilization = ratio_series(d, "utilization_gpu", where);
    s.memory_used = bytes_series(d, "memory_used_samples", where);
    if (auto um = ratio_field(d, "utilization_memory", where)) dev.utilization_memory = *um;
    devices_.push_back(dev);
    series_.push_back(s);
  }
  for (const auto& x : machine.value("xid_events", json::array())) {
    PendingXid p;
    p.event.uuid = field<std::string>(x, "uuid", "xid_events").value_or("");
    p.event.xid = field<std::uint64_t>(x, "xid", "xid_events").value_or(0);
    p.at_snapshot = field<std::size_t>(x, "at_snapshot", "xid_events").value_or(0);
    xids_.push_back(p);
  }
}

std::unique_ptr<FakeGpuBackend> FakeGpuBackend::from_file(const Filesystem& fs, const std::string& path) {
  // The rules of every input file (docs/cli.md): at most 4 MiB (/dev/zero is refused, not read for good),
  // strict JSON (1e999, a duplicated key, deep nesting: exit 2 naming the file).
  const std::string source = "fake GPU machine '" + quote_input(path) + "'";
  return std::make_unique<FakeGpuBackend>(
      parse_json_document(read_input_file(fs, path), source, "docs/fake-gpu.md describes the file"));
}

std::vector<GpuDeviceInfo> FakeGpuBackend::devices() {
  std::vector<GpuDeviceInfo> out = devices_;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!series_[i].utilization.empty()) out[i].utilization_gpu = sample(series_[i].utilization, snapshot_);
    if (!series_[i].memory_used.empty()) {
      out[i].memory_used_bytes = static_cast<std::uint64_t>(sample(series_[i].memory_used, snapshot_));
    }
    out[i].gpm = gpm_at(series_[i].gpm, snapshot_);
    for (std::size_t m = 0; m < out[i].mig_instances.size(); ++m) {
      out[i].mig_instances[m].gpm = gpm_at(series_[i].mig_gpm[m], snapshot_);
    }
  }
  ++snapshot_;
  return out;
}

std::vector<XidEvent> FakeGpuBackend::poll_xid_events() {
  std::vector<XidEvent> out;
  for (auto& x : xids_) {
    if (!x.delivered && snapshot_ >= x.at_snapshot) {
      x.delivered = true;
      out.push_back(x.event);
    }
  }
  return out;
}

}  // namespace gpupack
