// `gpupack gpus [--format table|json]`: what the GPU layer sees on this machine.
#include <ostream>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
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

std::string catalog_model(const std::string& product) {
  static const GpuCatalog catalog = builtin_catalog();
  const GpuModel* m = catalog.find(product);
  return m ? m->name : "";
}

Json device_json(const GpuDeviceInfo& d) {
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
                   {"memory_used_bytes", opt(m.memory_used_bytes)}});
  }
  Json procs = Json::array();
  for (const auto& p : d.processes) {
    procs.push_back({{"pid", p.pid},
                     {"used_memory_bytes", opt(p.used_memory_bytes)},
                     {"mps_client", p.mps_client},
                     {"gpu_instance_id", opt(p.gpu_instance_id)},
                     {"compute_instance_id", opt(p.compute_instance_id)}});
  }
  const std::string model = catalog_model(d.name);
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
          {"mig_instances", mig},
          {"processes", procs}};
}

std::string percent(const std::optional<double>& ratio) {
  return ratio ? format_number(*ratio * 100) + "%" : "-";
}

void print_tables(std::ostream& out, const std::vector<GpuDeviceInfo>& devices) {
  Table t({"INDEX", "UUID", "NAME", "MODEL", "MEMORY USED", "MEMORY TOTAL", "UTIL", "COMPUTE MODE", "MIG"});
  for (const auto& d : devices) {
    const std::string model = catalog_model(d.name);
    t.add({std::to_string(d.index), d.uuid, d.name, model.empty() ? "(not in catalog)" : model,
           gib_text(d.memory_used_bytes), gib_text(d.memory_total_bytes), percent(d.utilization_gpu),
           d.compute_mode.value_or("-"), d.mig_enabled ? (*d.mig_enabled ? "on" : "off") : "-"});
  }
  t.print(out);
  Table mig({"GPU", "MIG UUID", "GI", "CI", "PROFILE", "PLACEMENT", "MEMORY USED", "MEMORY TOTAL"});
  bool any_mig = false;
  Table procs({"GPU", "PID", "KIND", "MEMORY", "GI"});
  bool any_proc = false;
  for (const auto& d : devices) {
    for (const auto& m : d.mig_instances) {
      any_mig = true;
      const std::string placement = m.placement_start && m.placement_size
                                        ? std::to_string(*m.placement_start) + ":" + std::to_string(*m.placement_size)
                                        : "-";
      mig.add({std::to_string(d.index), m.uuid, std::to_string(m.gpu_instance_id), std::to_string(m.compute_instance_id),
               m.profile.empty() ? "-" : m.profile, placement, gib_text(m.memory_used_bytes), gib_text(m.memory_total_bytes)});
    }
    for (const auto& p : d.processes) {
      any_proc = true;
      procs.add({std::to_string(d.index), std::to_string(p.pid), p.mps_client ? "mps-client" : "compute",
                 gib_text(p.used_memory_bytes), p.gpu_instance_id ? std::to_string(*p.gpu_instance_id) : "-"});
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

int list_gpus(std::ostream& out, OutputFormat format) {
  return with_gpu_backend([&](GpuBackend& backend) {
    const auto devices = backend.devices();
    if (format == OutputFormat::json) {
      Json list = Json::array();
      for (const auto& d : devices) list.push_back(device_json(d));
      out << Json{{"backend", backend.name()}, {"driver_version", opt(backend.driver_version())}, {"devices", list}}.dump(2)
          << '\n';
      return exit_code::ok;
    }
    if (devices.empty()) {
      out << "no GPUs (backend " << backend.name() << ")\n";
      return exit_code::ok;
    }
    print_tables(out, devices);
    return exit_code::ok;
  });
}

}  // namespace

void register_gpus_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("gpus", "Show the GPUs of this machine: memory, utilisation, MIG instances, processes");
  auto format = std::make_shared<OutputFormat>(OutputFormat::table);
  add_format_option(*cmd, *format, {"table", "json"});
  cmd->callback([&ctx, format] { ctx.action = [&ctx, format] { return list_gpus(ctx.out, *format); }; });
}

}  // namespace gpupack
