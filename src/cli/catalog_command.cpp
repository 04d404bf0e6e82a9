// `gpupack catalog [--format table|json]` and `gpupack catalog show <gpu>`.
#include <ostream>

#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/json_views.hpp"
#include "cli/table.hpp"
#include "core/gpu_catalog.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {

// A value followed by " (UNCONFIRMED)" when the data says it was not seen in real output.
std::string mark(const std::string& value, bool unconfirmed) {
  return unconfirmed ? value + " (UNCONFIRMED)" : value;
}

std::string mps_limits_text(const GpuModel& m) {
  if (!mps_supported(m)) return "no";
  const int before = mps_client_limit(m, {13, 0});
  const int after = mps_client_limit(m, {13, 1});
  return before == after ? std::to_string(before) : std::to_string(before) + " / " + std::to_string(after);
}

// "1/8 L4-24GB" for an AWS fractional GPU, "no" for a whole one.
std::string fraction_text(const GpuModel& m) {
  return m.fraction ? "1/" + std::to_string(m.fraction->denominator) + " " + m.fraction->of_model : "no";
}

int list_models(std::ostream& out, const GpuCatalog& catalog, OutputFormat format) {
  if (format == OutputFormat::json) {
    Json models = Json::array();
    for (const auto& m : catalog.models()) models.push_back(to_json(m));
    out << Json{{"models", models}}.dump(2) << '\n';
    return exit_code::ok;
  }
  Table t({"MODEL", "SHORT", "ARCH", "CC", "SMS", "MEMORY", "MIG", "FRACTIONAL", "MPS CLIENTS (<13.1 / >=13.1)", "MPS MEM ISOLATION"});
  for (const auto& m : catalog.models()) {
    std::string mig = "no";
    if (m.mig) mig = std::to_string(m.mig->max_instances) + " inst";
    t.add({m.name, m.aliases.empty() ? "" : m.aliases.front(), std::string(to_string(m.arch)),
           m.compute_capability.to_string(), std::to_string(m.sm_count), format_number(m.memory_gib) + " GB", mig,
           fraction_text(m), mps_limits_text(m), !mps_supported(m) ? "-" : mps_isolates_memory(m) ? "yes" : "no"});
  }
  t.print(out);
  return exit_code::ok;
}

void print_profiles_table(std::ostream& out, const MigGeometry& g) {
  Table t({"PROFILE", "ID", "COMPUTE", "MEM SLICES", "MEMORY GiB", "SMS", "CE", "NVDEC", "MAX", "PLACEMENTS",
           "UNCONFIRMED"});
  for (const auto& p : g.profiles) {
    std::string starts;
    for (int s : p.placement_starts) starts += (starts.empty() ? "" : ",") + std::to_string(s);
    auto opt = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string("-"); };
    t.add({p.name, opt(p.gi_profile_id), std::to_string(p.compute_slices), std::to_string(p.memory_slices),
           format_number(p.memory_gib), std::to_string(p.sms), opt(p.copy_engines), opt(p.decoders),
           std::to_string(p.max_count), "{" + starts + "}:" + std::to_string(p.memory_slices),
           p.unconfirmed.empty() ? "" : join(p.unconfirmed, ",")});
  }
  t.print(out);
}

int show_model(std::ostream& out, const GpuCatalog& catalog, const std::string& name, OutputFormat format) {
  const GpuModel& m = catalog.get(name);
  if (format == OutputFormat::json) {
    out << to_json(m).dump(2) << '\n';
    return exit_code::ok;
  }
  out << "model:               " << m.name << '\n'
      << "aliases:             " << join(m.aliases, ", ") << '\n'
      << "NVML names:          " << mark(join(m.nvml_names, ", "), m.is_unconfirmed("nvml_names")) << '\n'
      << "architecture:        " << to_string(m.arch) << " (compute capability " << m.compute_capability.to_string()
      << ")\n"
      << "SMs:                 " << mark(std::to_string(m.sm_count), m.is_unconfirmed("sm_count")) << '\n'
      << "memory:              " << format_number(m.memory_gib) << " GB (nominal)"
      << (m.memory_bandwidth_gbs > 0 ? ", " + format_number(m.memory_bandwidth_gbs) + " GB/s peak bandwidth" : "") << '\n'
      << "fractional:          ";
  if (m.fraction) {
    out << fraction_text(m) << " (AWS instances " << join(m.fraction->instance_types, ", ")
        << "; time-slicing inside, no MPS: not documented for the vGPU guest)\n";
  } else {
    out << "no\n";
  }
  out << "MPS clients per GPU: " << mps_client_limit(m, {13, 0}) << " up to CUDA 13.0";
  if (mps_client_limit(m, {13, 1}) != mps_client_limit(m, {13, 0})) {
    out << ", " << mps_client_limit(m, {13, 1}) << " from CUDA 13.1";
  }
  out << '\n'
      << "MPS memory isolation: " << (!mps_supported(m) ? "- (no MPS)" : mps_isolates_memory(m) ? "yes (Volta+)" : "no (pre-Volta: shared address space)")
      << '\n'
      << "MPS static SM partitions: " << (mps_static_sm_partitions(m, {13, 1}) ? "from CUDA 13.1" : "no") << '\n';
  if (!m.mig) {
    out << "MIG:                 not supported\n";
    return exit_code::ok;
  }
  out << "MIG:                 " << m.mig->max_instances << " instances at most; " << m.mig->memory_slices
      << " memory slices, " << m.mig->compute_slices << " compute slices; driver " << m.mig->min_driver
      << " or later\n\n";
  print_profiles_table(out, *m.mig);
  return exit_code::ok;
}

}  // namespace

void register_catalog_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("catalog", "List the GPU models gpupack knows, or show one");
  auto format = std::make_shared<OutputFormat>(OutputFormat::table);
  add_format_option(*cmd, *format, {"table", "json"});
  cmd->callback([&ctx, cmd, format] {
    if (cmd->get_subcommands().empty()) ctx.action = [&ctx, format] { return list_models(ctx.out, ctx.catalog, *format); };
  });

  auto* show = cmd->add_subcommand("show", "Show one GPU model: specs, MPS limits, MIG profiles");
  auto gpu = std::make_shared<std::string>();
  auto show_format = std::make_shared<OutputFormat>(OutputFormat::table);
  show->add_option("gpu", *gpu, "GPU model (any alias, e.g. H100-80GB or \"NVIDIA H100 80GB HBM3\")")->required();
  add_format_option(*show, *show_format, {"table", "json"});
  show->callback([&ctx, gpu, show_format, format] {
    // `catalog --format json show X` and `catalog show X --format json` both work.
    const OutputFormat f = *show_format != OutputFormat::table ? *show_format : *format;
    ctx.action = [&ctx, gpu, f] { return show_model(ctx.out, ctx.catalog, *gpu, f); };
  });
}

// Shared with `gpupack mig profiles`.
void print_mig_profiles(std::ostream& out, const MigGeometry& g) { print_profiles_table(out, g); }

}  // namespace gpupack
