// Renders a NodeSnapshot as Prometheus text. One function per group of families; every family written
// in one go so its samples stay together.
#include <algorithm>
#include <string>

#include "core/build_info.hpp"
#include "core/gpu_catalog.hpp"
#include "metrics/node_families.hpp"

namespace gpupack {

namespace {

using metrics_detail::GpuLabels;

std::optional<double> bytes(const std::optional<std::uint64_t>& b) {
  return b ? std::optional<double>(static_cast<double>(*b)) : std::nullopt;
}

void gpu_families(Exposition& e, const NodeSnapshot& s, const std::vector<GpuLabels>& ids, const GpuCatalog& catalog) {
  const auto& devs = s.devices;
  e.family("gpupack_gpu_info", "gauge", "GPU seen by the agent (value 1): product name and catalog model.");
  for (std::size_t i = 0; i < devs.size(); ++i) {
    const std::string model = catalog.model_name(devs[i].name);
    e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}, {"name", devs[i].name}, {"model", model}}, 1);
  }
  auto per_gpu = [&](const char* name, const char* help, auto value) {
    e.family(name, "gauge", help);
    for (std::size_t i = 0; i < devs.size(); ++i) {
      if (const std::optional<double> v = value(devs[i])) e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}}, *v);
    }
  };
  per_gpu("gpupack_gpu_utilization_ratio",
          "NVML utilisation: fraction of the driver's last sample period in which any kernel ran (0-1); one small kernel "
          "counts as busy, see gpupack_gpu_sm_active_ratio for the share of SMs.",
          [](const GpuDeviceInfo& d) { return d.utilization_gpu; });
  per_gpu("gpupack_gpu_memory_utilization_ratio", "Fraction of the last sample period in which memory was read or written (0-1).",
          [](const GpuDeviceInfo& d) { return d.utilization_memory; });
  per_gpu("gpupack_gpu_memory_used_bytes", "GPU memory in use.", [&](const GpuDeviceInfo& d) { return bytes(d.memory_used_bytes); });
  per_gpu("gpupack_gpu_memory_total_bytes", "GPU memory in total.", [&](const GpuDeviceInfo& d) { return bytes(d.memory_total_bytes); });
  e.family("gpupack_gpu_xid_errors_total", "counter", "XID errors the driver reported since the agent started.");
  for (const auto& id : ids) {
    const auto it = s.xid_errors.find(id.uuid);
    e.sample({{"gpu", id.index}, {"uuid", id.uuid}}, it == s.xid_errors.end() ? 0.0 : static_cast<double>(it->second));
  }
}

void sharing_families(Exposition& e, const NodeSnapshot& s) {
  e.family("gpupack_sharing_info", "gauge", "Configured sharing of a GPU or MIG instance (value 1).");
  for (const auto& sh : s.sharing) {
    e.sample({{"uuid", sh.gpu_uuid}, {"target", sh.target_uuid}, {"mode", sh.mode}, {"tenant", sh.tenant}}, 1);
  }
  e.family("gpupack_sharing_clients_limit", "gauge", "Clients admitted at once on a GPU or MIG instance (configured).");
  for (const auto& sh : s.sharing) e.sample({{"uuid", sh.gpu_uuid}, {"target", sh.target_uuid}}, sh.clients_limit);
  e.family("gpupack_sharing_clients_admitted", "gauge", "Admission slots held by gpupack run clients (the book admission reads).");
  for (const auto& sh : s.sharing) e.sample({{"uuid", sh.gpu_uuid}, {"target", sh.target_uuid}}, sh.clients_admitted);
  e.family("gpupack_sharing_client_sm_limit_ratio", "gauge", "Configured per-client SM limit (active thread percentage / 100).");
  for (const auto& sh : s.sharing) {
    if (sh.sm_percent) e.sample({{"uuid", sh.gpu_uuid}, {"target", sh.target_uuid}}, *sh.sm_percent / 100.0);
  }
  e.family("gpupack_sharing_client_memory_limit_bytes", "gauge", "Configured per-client memory limit.");
  for (const auto& sh : s.sharing) {
    if (sh.memory_limit_bytes) e.sample({{"uuid", sh.gpu_uuid}, {"target", sh.target_uuid}}, static_cast<double>(*sh.memory_limit_bytes));
  }
}

void mig_families(Exposition& e, const NodeSnapshot& s, const std::vector<GpuLabels>& ids) {
  e.family("gpupack_mig_instance_info", "gauge", "MIG instance (value 1): profile and placement.");
  for (std::size_t i = 0; i < s.devices.size(); ++i) {
    for (const auto& m : s.devices[i].mig_instances) {
      const std::string gi = std::to_string(m.gpu_instance_id), ci = std::to_string(m.compute_instance_id);
      const std::string placement = m.placement_start && m.placement_size
                                        ? std::to_string(*m.placement_start) + ":" + std::to_string(*m.placement_size)
                                        : "";
      e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}, {"mig_uuid", m.uuid}, {"profile", m.profile},
                {"gpu_instance_id", gi}, {"compute_instance_id", ci}, {"placement", placement}},
               1);
    }
  }
  auto per_mig = [&](const char* name, const char* help, auto field) {
    e.family(name, "gauge", help);
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
      for (const auto& m : s.devices[i].mig_instances) {
        if (const auto v = field(m)) e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}, {"mig_uuid", m.uuid}}, static_cast<double>(*v));
      }
    }
  };
  per_mig("gpupack_mig_instance_memory_used_bytes", "Memory in use in a MIG instance.",
          [](const MigInstanceInfo& m) { return m.memory_used_bytes; });
  per_mig("gpupack_mig_instance_memory_total_bytes", "Memory of a MIG instance.",
          [](const MigInstanceInfo& m) { return m.memory_total_bytes; });
}

void process_families(Exposition& e, const NodeSnapshot& s, const std::vector<GpuLabels>& ids) {
  struct Row {
    std::size_t gpu;
    const GpuProcessInfo* p;
    const ProcessSnapshot* details;
    std::string pid, uid, gi;
  };
  static const ProcessSnapshot kNone;
  std::vector<Row> rows;
  for (std::size_t i = 0; i < s.devices.size(); ++i) {
    for (const auto& p : s.devices[i].processes) {
      const auto it = s.processes.find(p.pid);
      const ProcessSnapshot* d = it == s.processes.end() ? &kNone : &it->second;
      rows.push_back({i, &p, d, std::to_string(p.pid), d->uid ? std::to_string(*d->uid) : "",
                      p.gpu_instance_id ? std::to_string(*p.gpu_instance_id) : ""});
    }
  }
  auto labels = [&](const Row& r) -> Labels {
    return {{"gpu", ids[r.gpu].index}, {"uuid", ids[r.gpu].uuid}, {"pid", r.pid}, {"uid", r.uid},
            {"mps_client", r.p->mps_client ? "true" : "false"}, {"gpu_instance_id", r.gi},
            {"pod_uid", r.details->pod_uid}, {"container_id", r.details->container_id},
            {"pod", r.details->pod}, {"namespace", r.details->pod_namespace}, {"container", r.details->container}};
  };
  auto per_process = [&](const char* name, const char* help, auto value) {
    e.family(name, "gauge", help);
    for (const auto& r : rows) {
      if (const std::optional<double> v = value(r)) e.sample(labels(r), *v);
    }
  };
  per_process("gpupack_process_memory_used_bytes", "GPU memory used by a process (MPS clients included).",
              [&](const Row& r) { return bytes(r.p->used_memory_bytes); });
  per_process("gpupack_process_sm_utilization_ratio",
              "NVML per-process SM utilisation since the last read (0-1); under MPS only the server's pid has it, on MIG none.",
              [](const Row& r) { return r.p->sm_utilization; });
  per_process("gpupack_process_memory_utilization_ratio",
              "NVML per-process memory utilisation since the last read: share of time its kernels read or wrote memory (0-1).",
              [](const Row& r) { return r.p->memory_utilization; });
  per_process("gpupack_process_sm_allocated_ratio",
              "Share of its GPU or MIG instance's SMs a process was allotted (its MPS active thread percentage / 100, else the configured default).",
              [](const Row& r) { return r.details->allocated_sm_ratio; });
  per_process("gpupack_process_memory_allocated_bytes",
              "GPU memory a process was allotted (its MPS pinned memory limit, else the configured default).",
              [&](const Row& r) { return bytes(r.details->allocated_bytes); });
  // Waste: memory allotted to clients that they do not use, per GPU.
  std::vector<double> allocated(s.devices.size(), 0), unused(s.devices.size(), 0);
  for (const auto& r : rows) {
    if (!r.details->allocated_bytes) continue;
    const double a = static_cast<double>(*r.details->allocated_bytes);
    const double u = static_cast<double>(r.p->used_memory_bytes.value_or(0));
    allocated[r.gpu] += a;
    unused[r.gpu] += std::max(0.0, a - u);
  }
  e.family("gpupack_gpu_memory_allocated_bytes", "gauge", "Sum of the memory allotted to the GPU's processes.");
  for (std::size_t i = 0; i < ids.size(); ++i) e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}}, allocated[i]);
  e.family("gpupack_gpu_memory_allocated_unused_bytes", "gauge", "Memory allotted to processes but not used by them (waste).");
  for (std::size_t i = 0; i < ids.size(); ++i) e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}}, unused[i]);
}

void mps_families(Exposition& e, const NodeSnapshot& s) {
  e.family("gpupack_mps_daemon_up", "gauge", "Whether the MPS control daemon of a target answers (1) or not (0).");
  for (const auto& m : s.mps) e.sample({{"target", m.target_uuid}, {"pipe_dir", m.pipe_dir}}, m.status.daemon_up ? 1 : 0);
  e.family("gpupack_mps_server_state", "gauge", "MPS server state (1 for the current state, 0 for the others).");
  for (const auto& m : s.mps) {
    for (const auto& srv : m.status.servers) {
      const std::string pid = std::to_string(srv.pid);
      for (MpsServerState st : {MpsServerState::initializing, MpsServerState::active, MpsServerState::fault}) {
        e.sample({{"target", m.target_uuid}, {"server_pid", pid}, {"state", to_string(st)}}, srv.state == st ? 1 : 0);
      }
    }
  }
  e.family("gpupack_mps_clients", "gauge", "Clients connected to the MPS servers of a target.");
  for (const auto& m : s.mps) {
    std::size_t n = 0;
    for (const auto& srv : m.status.servers) n += srv.clients.size();
    e.sample({{"target", m.target_uuid}}, static_cast<double>(n));
  }
  e.family("gpupack_mps_daemon_restarts_total", "counter", "MPS control daemon restarts by the agent.");
  for (const auto& m : s.mps) e.sample({{"target", m.target_uuid}}, m.status.daemon_restarts);
  e.family("gpupack_mps_server_restarts_total", "counter", "MPS server restarts by the agent.");
  for (const auto& m : s.mps) e.sample({{"target", m.target_uuid}}, m.status.server_restarts);
}

}  // namespace

std::string render_node_metrics(const NodeSnapshot& s, const GpuCatalog& catalog) {
  Exposition e(4096 + s.devices.size() * 4096);
  e.family("gpupack_build_info", "gauge", "gpupack agent build (value 1).");
  // The commit is the binary's own (core/build_info.hpp), not the snapshot's: it cannot differ in one process.
  e.sample({{"version", s.version}, {"commit", std::string(build_commit())}, {"backend", s.backend}}, 1);
  std::vector<GpuLabels> ids;
  for (const auto& d : s.devices) ids.push_back({std::to_string(d.index), d.uuid});
  gpu_families(e, s, ids, catalog);
  metrics_detail::gpm_families(e, s, ids);
  sharing_families(e, s);
  mig_families(e, s, ids);
  process_families(e, s, ids);
  metrics_detail::slice_families(e, s);
  mps_families(e, s);
  e.family("gpupack_agent_config_reloads_total", "counter", "Node config reloads that took effect (SIGHUP).");
  e.sample({}, static_cast<double>(s.reloads));
  e.family("gpupack_agent_config_reload_failures_total", "counter", "Node config reloads refused (the old config stayed).");
  e.sample({}, static_cast<double>(s.reload_failures));
  e.family("gpupack_agent_last_refresh_timestamp_seconds", "gauge", "When the agent last read the GPUs (Unix time).");
  e.sample({}, s.last_refresh_unix_seconds);
  return e.take();
}

}  // namespace gpupack
