// `gpupack gpus [--format table|json] [--interval S]`: what the GPU layer sees on this machine. With an
// interval it reads the GPUs twice, that far apart, and shows the GPM activity and per-process
// utilisation of that interval (both need two samples).
#include <chrono>
#include <ostream>

#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/json_views.hpp"
#include "cli/table.hpp"
#include "core/gpu_catalog.hpp"

namespace gpupack {

namespace {

template <typename T>
Json opt(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json gpm_json(const std::optional<GpmActivity>& g) {
  if (!g) return nullptr;
  return {{"sm_active", opt(g->sm_active)},
          {"sm_occupancy", opt(g->sm_occupancy)},
          {"tensor_active", opt(g->tensor_active)},
          {"dram_bw", opt(g->dram_bw)},
          {"interval_seconds", g->interval_seconds}};
}

Json device_json(const GpuDeviceInfo& d, const GpuCatalog& catalog) {
  Json mig = Json::array();
  for (const auto& m : d.mig_instances) {
    mig.push_back({{"uuid", m.uuid},
                   {"gpu_instance_id", m.gpu_instance_id},
                   {"compute_instance_id", m.compute_instance_id},
                   {"profile", m.profile.empty() ? Json(nullptr) : Json(m.profile)},
                   {"profile_id", opt(m.profile_id)},
                   {"placement_start", opt(m.placement_start)},
                   {"placement_size", opt(m.placement_size)},
                   {"memory_total_bytes", opt(m.memory_total_bytes)},
                   {"memory_used_bytes", opt(m.memory_used_bytes)},
                   {"gpm", gpm_json(m.gpm)}});
  }
  Json procs = Json::array();
  for (const auto& p : d.processes) {
    procs.push_back({{"pid", p.pid},
                     {"used_memory_bytes", opt(p.used_memory_bytes)},
                     {"mps_client", p.mps_client},
                     {"gpu_instance_id", opt(p.gpu_instance_id)},
                     {"compute_instance_id", opt(p.compute_instance_id)},
                     {"sm_utilization", opt(p.sm_utilization)},
                     {"memory_utilization", opt(p.memory_utilization)}});
  }
  const std::string model = catalog.model_name(d.name);
  return {{"index", d.index},
          {"uuid", d.uuid},
          {"name", d.name},
          {"model", model.empty() ? Json(nullptr) : Json(model)},
          {"memory_total_bytes", opt(d.memory_total_bytes)},
          {"memory_used_bytes", opt(d.memory_used_bytes)},
          {"compute_mode", opt(d.compute_mode)},
          {"mig_enabled", opt(d.mig_enabled)},
          {"utilization_gpu", opt(d.utilization_gpu)},
          {"utilization_memory", opt(d.utilization_memory)},
          {"gpm", gpm_json(d.gpm)},
          {"mig_instances", mig},
          {"processes", procs}};
}

std::string percent(const std::optional<double>& ratio) {
  return ratio ? format_number(*ratio * 100) + "%" : "-";
}

// GPM columns, shown only when some GPU or MIG instance has GPM values.
const std::vector<std::string> kGpmHeader = {"SM ACTIVE", "SM OCCUPANCY", "TENSOR", "DRAM BW"};
std::vector<std::string> gpm_cells(const std::optional<GpmActivity>& g) {
  if (!g) return {"-", "-", "-", "-"};
  return {percent(g->sm_active), percent(g->sm_occupancy), percent(g->tensor_active), percent(g->dram_bw)};
}
std::vector<std::string> with(std::vector<std::string> row, bool show, const std::vector<std::string>& more) {
  if (show) row.insert(row.end(), more.begin(), more.end());
  return row;
}

void print_tables(std::ostream& out, const std::vector<GpuDeviceInfo>& devices, const GpuCatalog& catalog) {
  bool any_gpm = false, any_proc_util = false;
  for (const auto& d : devices) {
    any_gpm = any_gpm || d.gpm.has_value();
    for (const auto& m : d.mig_instances) any_gpm = any_gpm || m.gpm.has_value();
    for (const auto& p : d.processes) any_proc_util = any_proc_util || p.sm_utilization.has_value();
  }
  // UTIL is NVML's: the share of time any kernel ran; SM ACTIVE (GPM) is the share of SMs busy.
  Table t(with({"INDEX", "UUID", "NAME", "MODEL", "MEMORY USED", "MEMORY TOTAL", "UTIL", "COMPUTE MODE", "MIG"}, any_gpm, kGpmHeader));
  for (const auto& d : devices) {
    const std::string model = catalog.model_name(d.name);
    t.add(with({std::to_string(d.index), d.uuid, d.name, model.empty() ? "(not in catalog)" : model,
                gib_text(d.memory_used_bytes), gib_text(d.memory_total_bytes), percent(d.utilization_gpu),
                d.compute_mode.value_or("-"), d.mig_enabled ? (*d.mig_enabled ? "on" : "off") : "-"},
               any_gpm, gpm_cells(d.gpm)));
  }
  t.print(out);
  Table mig(with({"GPU", "MIG UUID", "GI", "CI", "PROFILE", "PLACEMENT", "MEMORY USED", "MEMORY TOTAL"}, any_gpm, kGpmHeader));
  bool any_mig = false;
  Table procs(with({"GPU", "PID", "KIND", "MEMORY", "GI"}, any_proc_util, {"SM UTIL", "MEM UTIL"}));
  bool any_proc = false;
  for (const auto& d : devices) {
    for (const auto& m : d.mig_instances) {
      any_mig = true;
      const std::string placement = m.placement_start && m.placement_size
                                        ? std::to_string(*m.placement_start) + ":" + std::to_string(*m.placement_size)
                                        : "-";
      mig.add(with({std::to_string(d.index), m.uuid, std::to_string(m.gpu_instance_id), std::to_string(m.compute_instance_id),
                    m.profile.empty() ? "-" : m.profile, placement, gib_text(m.memory_used_bytes), gib_text(m.memory_total_bytes)},
                   any_gpm, gpm_cells(m.gpm)));
    }
    for (const auto& p : d.processes) {
      any_proc = true;
      procs.add(with({std::to_string(d.index), std::to_string(p.pid), p.mps_client ? "mps-client" : "compute",
                      gib_text(p.used_memory_bytes), p.gpu_instance_id ? std::to_string(*p.gpu_instance_id) : "-"},
                     any_proc_util, {percent(p.sm_utilization), percent(p.memory_utilization)}));
    }
  }
  if (any_mig) {
    out << '\n';
    mig.print(out);
  }
  if (any_proc) {
    out << '\n';
    procs.print(out);
  }
}

int list_gpus(const CommandContext& ctx, OutputFormat format, double interval_seconds) {
  std::ostream& out = ctx.out;
  return with_gpu_backend(ctx, [&](GpuBackend& backend) {
    auto devices = backend.devices();
    if (interval_seconds > 0) {
      ctx.env.clock.sleep_for(std::chrono::milliseconds(static_cast<long>(interval_seconds * 1000)));
      devices = backend.devices();
    }
    if (format == OutputFormat::json) {
      Json list = Json::array();
      for (const auto& d : devices) list.push_back(device_json(d, ctx.catalog));
      out << Json{{"backend", backend.name()}, {"driver_version", opt(backend.driver_version())}, {"devices", list}}.dump(2)
          << '\n';
      return exit_code::ok;
    }
    if (devices.empty()) {
      out << "no GPUs (backend " << backend.name() << ")\n";
      return exit_code::ok;
    }
    print_tables(out, devices, ctx.catalog);
    return exit_code::ok;
  });
}

}  // namespace

void register_gpus_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("gpus", "Show the GPUs of this machine: memory, utilisation, MIG instances, processes");
  auto format = std::make_shared<OutputFormat>(OutputFormat::table);
  auto interval = std::make_shared<double>(0.0);
  add_format_option(*cmd, *format, {"table", "json"});
  cmd->add_option("--interval", *interval,
                  "Read the GPUs twice this many seconds apart and show GPM activity and per-process utilisation over it")
      ->check(CLI::Range(0.0, 60.0))
      ->capture_default_str();
  cmd->callback([&ctx, format, interval] { ctx.action = [&ctx, format, interval] { return list_gpus(ctx, *format, *interval); }; });
}

}  // namespace gpupack
