#include "bench/device_query.hpp"

#include <sstream>

#include "os/process_runner.hpp"

namespace gpupack::bench {

namespace {
std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string f;
  while (std::getline(in, f, ',')) fields.push_back(trim(f));
  return fields;
}

// "(UUID: GPU-...)" -> "GPU-..."
std::string uuid_in(const std::string& line) {
  const auto at = line.find("UUID: ");
  if (at == std::string::npos) return "";
  const auto end = line.find(')', at);
  return trim(line.substr(at + 6, end == std::string::npos ? std::string::npos : end - at - 6));
}
}  // namespace

namespace {
std::string hex_part(const std::string& uuid) {
  const auto dash = uuid.find('-');
  return dash == std::string::npos ? uuid : uuid.substr(dash + 1);
}
}  // namespace

void resolve_gpu(DeviceInfo& device, const std::string& listing) {
  device.gpu_uuid = device.uuid;
  const std::string digits = hex_part(device.uuid);
  std::stringstream in(listing);
  std::string line, current;
  while (std::getline(in, line)) {
    const std::string uuid = uuid_in(line);
    if (uuid.rfind("GPU-", 0) == 0) current = uuid;
    if (uuid.rfind("MIG-", 0) == 0 && hex_part(uuid) == digits) {
      device.uuid = uuid;
      device.gpu_uuid = current;
    }
  }
}

DeviceInfo device_from_worker(const nlohmann::json& j) {
  DeviceInfo d;
  d.name = j.at("name").get<std::string>();
  d.uuid = j.at("uuid").get<std::string>();
  d.gpu_uuid = d.uuid;
  d.compute_capability = j.at("compute_capability").get<std::string>();
  d.sm_count = j.at("sm_count").get<int>();
  d.memory_bytes = j.at("memory_bytes").get<std::uint64_t>();
  d.cuda_driver_version = j.at("cuda_driver_version").get<std::string>();
  d.cuda_runtime_version = j.at("cuda_runtime_version").get<std::string>();
  d.compute_mode = j.at("compute_mode").get<std::string>();
  const auto& c = j.at("calibration");
  d.client_iters_per_ms = c.at("client_iters_per_ms").get<double>();
  d.latency_iters_per_ms = c.at("latency_iters_per_ms").get<double>();
  d.saturating_iters_per_ms = c.at("saturating_iters_per_ms").get<double>();
  d.gemm_n = c.at("gemm_n").get<int>();
  d.gemm_ms = c.at("gemm_ms").get<double>();
  return d;
}

void apply_smi_query(DeviceInfo& device, const std::string& csv) {
  std::stringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    const auto f = split_csv(line);
    if (f.size() < 4 || f[0] != device.gpu_uuid) continue;
    device.driver_version = f[1];
    device.mig_mode = f[2] == "[N/A]" ? "" : f[2];
  }
}

std::vector<std::string> parse_mig_uuids(const std::string& listing, const std::string& gpu_uuid) {
  std::vector<std::string> out;
  std::stringstream in(listing);
  std::string line, current;
  while (std::getline(in, line)) {
    const std::string uuid = uuid_in(line);
    if (uuid.rfind("GPU-", 0) == 0) current = uuid;
    if (uuid.rfind("MIG-", 0) == 0 && current == gpu_uuid) out.push_back(uuid);
  }
  return out;
}

std::string query_driver_tools(DeviceInfo& device) {
  PosixProcessRunner runner;
  if (!runner.find_program("nvidia-smi")) return "nvidia-smi not found: driver version and MIG mode unknown";
  ProcessSpec query;
  query.argv = {"nvidia-smi", "--query-gpu=uuid,driver_version,mig.mode.current,compute_mode", "--format=csv,noheader"};
  const ProcessResult q = runner.run(query);
  if (q.exit_code != 0) return "nvidia-smi --query-gpu failed: " + trim(q.err + q.out);
  ProcessSpec list;
  list.argv = {"nvidia-smi", "-L"};
  const ProcessResult l = runner.run(list);
  if (l.exit_code == 0) {
    resolve_gpu(device, l.out);
    device.mig_instances = parse_mig_uuids(l.out, device.gpu_uuid);
  }
  apply_smi_query(device, q.out);
  return "";
}

}  // namespace gpupack::bench
