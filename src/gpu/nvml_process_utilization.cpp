#include "gpu/nvml_process_utilization.hpp"

#include <algorithm>

namespace gpupack::nvml {

bool ProcessUtilizationReader::query(Device device, const std::string& gpu_uuid, std::map<unsigned, Row>& rows) {
  unsigned long long& last_seen = last_seen_[gpu_uuid];
  // The newest row of each pid (the older query can return several samples per process).
  auto keep = [&](unsigned pid, unsigned long long ts, unsigned sm, unsigned memory) {
    Row& row = rows[pid];
    if (ts >= row.timestamp) row = {ts, sm, memory};
  };
  Return r = kErrorFunctionNotFound;
  unsigned long long newest = last_seen;
  if (lib_.device_get_processes_utilization_info) {
    std::vector<ProcessUtilizationInfoV1> buffer;
    ProcessesUtilizationInfoV1 info{};
    info.version = kProcessesUtilizationInfoV1Version;
    info.lastSeenTimeStamp = last_seen;
    r = lib_.device_get_processes_utilization_info(device, &info);  // asks for the size
    for (int attempt = 0; attempt < 3 && r == kErrorInsufficientSize; ++attempt) {
      buffer.resize(info.processSamplesCount + 8);  // processes may start between the two calls
      info.processSamplesCount = static_cast<unsigned>(buffer.size());
      info.procUtilArray = buffer.data();
      r = lib_.device_get_processes_utilization_info(device, &info);
    }
    if (r == kSuccess) {
      buffer.resize(std::min<std::size_t>(info.processSamplesCount, buffer.size()));
      for (const auto& u : buffer) {
        keep(u.pid, u.timeStamp, u.smUtil, u.memUtil);
        newest = std::max(newest, u.timeStamp);
      }
    }
  }
  if (r != kSuccess && r != kErrorNotFound && lib_.device_get_process_utilization) {
    unsigned count = 0;
    r = lib_.device_get_process_utilization(device, nullptr, &count, last_seen);
    std::vector<ProcessUtilizationSample> samples;
    for (int attempt = 0; attempt < 3 && r == kErrorInsufficientSize; ++attempt) {
      samples.resize(count + 8);
      count = static_cast<unsigned>(samples.size());
      r = lib_.device_get_process_utilization(device, samples.data(), &count, last_seen);
    }
    if (r == kSuccess) {
      samples.resize(std::min<std::size_t>(count, samples.size()));
      for (const auto& u : samples) {
        keep(u.pid, u.timeStamp, u.smUtil, u.memUtil);
        newest = std::max(newest, u.timeStamp);
      }
    }
  }
  last_seen = newest;
  // NOT_FOUND: no process ran since the last query (a supported GPU with nothing to report).
  return r == kSuccess || r == kErrorNotFound;
}

void ProcessUtilizationReader::fill(Device device, const std::string& gpu_uuid, std::vector<GpuProcessInfo>& processes) {
  if (processes.empty()) return;
  std::map<unsigned, Row> rows;
  if (!query(device, gpu_uuid, rows)) return;
  for (auto& p : processes) {
    const auto it = rows.find(p.pid);
    if (it != rows.end()) {
      p.sm_utilization = std::min(it->second.sm, 100u) / 100.0;
      p.memory_utilization = std::min(it->second.memory, 100u) / 100.0;
    } else if (!p.mps_client) {
      p.sm_utilization = 0.0;
      p.memory_utilization = 0.0;
    }
  }
}

}  // namespace gpupack::nvml
