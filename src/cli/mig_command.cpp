// `gpupack mig profiles|validate|layouts|capacity`: the MIG geometry engine on the command line.
#include <memory>
#include <ostream>

#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/json_views.hpp"
#include "cli/table.hpp"
#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "core/mig_capacity.hpp"
#include "core/mig_enumerate.hpp"
#include "core/mig_request.hpp"
#include "core/text.hpp"
#include "render/mig_parted.hpp"

namespace gpupack {

namespace {

const GpuModel& mig_model(const GpuCatalog& catalog, const std::string& name) {
  const GpuModel& m = catalog.get(name);
  if (!m.mig) {
    throw InputError(m.name + " does not support MIG; MIG-capable models: A100-40GB, A100-80GB, A30, H100-80GB, "
                     "H100-94GB, H200, GH200-96GB, GH200-144GB, B200, GB200, RTXPRO6000");
  }
  return m;
}

std::string placements_text(const MigGeometry& g, const std::vector<MigPlacedInstance>& instances) {
  std::string out;
  for (const auto& inst : instances) out += (out.empty() ? "" : " ") + format_instance(g, inst);
  return out;
}

int profiles(std::ostream& out, const GpuCatalog& catalog, const std::string& gpu, OutputFormat format) {
  const GpuModel& m = mig_model(catalog, gpu);
  if (format == OutputFormat::json) {
    Json list = Json::array();
    for (const auto& p : m.mig->profiles) list.push_back(to_json(p));
    out << Json{{"gpu", m.name},
                {"memory_slices", m.mig->memory_slices},
                {"compute_slices", m.mig->compute_slices},
                {"profiles", list}}
               .dump(2)
        << '\n';
    return exit_code::ok;
  }
  out << m.name << ": " << m.mig->memory_slices << " memory slices, " << m.mig->compute_slices
      << " compute slices, at most " << m.mig->max_instances << " instances\n";
  print_mig_profiles(out, *m.mig);
  return exit_code::ok;
}

int validate(std::ostream& out, const GpuCatalog& catalog, const std::string& gpu, const std::vector<std::string>& tokens, OutputFormat format) {
  const GpuModel& m = mig_model(catalog, gpu);
  const MigCounts counts = parse_mig_request(m, tokens);
  const MigValidation v = validate_layout(*m.mig, counts);
  if (format == OutputFormat::json) {
    out << Json{{"gpu", m.name},
                {"valid", v.valid},
                {"profiles", profile_counts_json(*m.mig, counts)},
                {"instances", v.valid ? instances_json(*m.mig, v.instances) : Json(nullptr)},
                {"reason", v.valid ? Json(nullptr) : Json(v.reason)}}
               .dump(2)
        << '\n';
  } else if (v.valid) {
    out << "valid on " << m.name << "; placements in creation order (profile@start:size):\n";
    for (const auto& inst : v.instances) out << "  " << format_instance(*m.mig, inst) << '\n';
  } else {
    out << "invalid on " << m.name << ": " << v.reason << '\n';
  }
  return v.valid ? exit_code::ok : exit_code::negative;
}

int layouts(std::ostream& out, const GpuCatalog& catalog, const std::string& gpu, MigEnumerateOptions options, OutputFormat format) {
  const GpuModel& m = mig_model(catalog, gpu);
  const MigGeometry& g = *m.mig;
  const std::vector<MigLayout> all = enumerate_layouts(g, options);
  if (format == OutputFormat::mig_parted) {
    out << render_mig_parted_config(g, all);
    return exit_code::ok;
  }
  if (format == OutputFormat::json) {
    Json list = Json::array();
    for (const auto& l : all) {
      list.push_back({{"name", mig_parted_config_name(g, l.counts)},
                      {"profiles", profile_counts_json(g, l.counts)},
                      {"instance_count", l.instances.size()},
                      {"instances", instances_json(g, l.instances)}});
    }
    out << Json{{"gpu", m.name},
                {"maximal_only", options.maximal_only},
                {"include_variants", options.include_variants},
                {"count", all.size()},
                {"layouts", list}}
               .dump(2)
        << '\n';
    return exit_code::ok;
  }
  out << m.name << ": " << all.size() << (options.maximal_only ? " maximal" : "") << " layouts"
      << (options.include_variants ? " (media and other variants included)" : " (variants excluded; --media adds them)")
      << "\nplacements are profile@start:size on the memory-slice axis, listed in creation order\n\n";
  Table t({"#", "N", "LAYOUT", "PLACEMENTS (creation order)"});
  for (size_t i = 0; i < all.size(); ++i) {
    t.add({std::to_string(i + 1), std::to_string(all[i].instances.size()), describe_layout(g, all[i].counts),
           placements_text(g, all[i].instances)});
  }
  t.print(out);
  return exit_code::ok;
}

struct CapacityArgs {
  std::string gpu;
  std::vector<std::string> tokens;
  int time_slicing = 0;
  int mps = 0;
  std::string cuda = kDefaultCudaVersion.to_string();
  OutputFormat format = OutputFormat::table;
};

int capacity(std::ostream& out, const GpuCatalog& catalog, const CapacityArgs& a) {
  const GpuModel& m = mig_model(catalog, a.gpu);
  const CudaVersion cuda = CudaVersion::parse(a.cuda);
  const MigCounts counts = parse_mig_request(m, a.tokens);
  const MigValidation v = validate_layout(*m.mig, counts);
  if (!v.valid) throw InputError("layout '" + join(a.tokens, " ") + "' does not fit on " + m.name + ": " + v.reason);
  const Sharing sharing = a.mps > 0 ? Sharing::mps : a.time_slicing > 0 ? Sharing::time_slicing : Sharing::exclusive;
  const int per_instance = a.mps > 0 ? a.mps : a.time_slicing > 0 ? a.time_slicing : 1;
  const MigCapacity cap = mig_capacity(m, counts, sharing, per_instance, cuda);
  // docs/json.md: unshared instances have always read "none" here (NVIDIA's word for an unshared device).
  const std::string sharing_name(sharing == Sharing::exclusive ? "none" : to_string(sharing));
  if (a.format == OutputFormat::json) {
    Json rows = Json::array();
    for (const auto& r : cap.rows) {
      rows.push_back({{"profile", m.mig->profiles[r.profile].name},
                      {"instances", r.instances},
                      {"requested_per_instance", r.requested_per_instance},
                      {"clients_per_instance", r.clients_per_instance},
                      {"mps_client_limit", sharing == Sharing::mps ? Json(r.mps_limit_per_instance) : Json(nullptr)},
                      {"total", r.total}});
    }
    out << Json{{"gpu", m.name},   {"sharing", sharing_name}, {"cuda", cuda.to_string()},
                {"instances", instances_json(*m.mig, v.instances)}, {"rows", rows}, {"total", cap.total},
                {"clamped", cap.clamped}}
               .dump(2)
        << '\n';
    return exit_code::ok;
  }
  out << m.name << ", sharing inside each instance: " << sharing_name;
  if (sharing == Sharing::mps) out << " (CUDA " << cuda.to_string() << ")";
  out << "\n";
  Table t({"PROFILE", "INSTANCES", "PER INSTANCE", "MPS LIMIT", "TOTAL"});
  for (const auto& r : cap.rows) {
    t.add({m.mig->profiles[r.profile].name, std::to_string(r.instances), std::to_string(r.clients_per_instance),
           sharing == Sharing::mps ? std::to_string(r.mps_limit_per_instance) : "-", std::to_string(r.total)});
  }
  t.print(out);
  out << "concurrent workloads: " << cap.total << '\n';
  if (cap.clamped) {
    out << "note: --mps " << a.mps << " exceeds the MPS client limit of some instances (limit "
        << mps_client_limit(m, cuda) << " per GPU, scaled by compute slices); clamped\n";
  }
  return exit_code::ok;
}

}  // namespace

void register_mig_command(CLI::App& app, CommandContext& ctx) {
  auto* mig = app.add_subcommand("mig", "MIG geometry: profiles, validation, layouts, capacity");
  mig->require_subcommand(1);
  const std::string gpu_help = "GPU model (any alias, e.g. A100-80GB, H100-80GB, H200)";
  const std::string profiles_help = "MIG profiles, e.g. 3g.40gb 2g.20gb 2x1g.10gb";

  {
    auto* cmd = mig->add_subcommand("profiles", "Table of a GPU's MIG profiles");
    auto gpu = std::make_shared<std::string>();
    auto format = std::make_shared<OutputFormat>(OutputFormat::table);
    cmd->add_option("gpu", *gpu, gpu_help)->required();
    add_format_option(*cmd, *format, {"table", "json"});
    cmd->callback([&ctx, gpu, format] { ctx.action = [&ctx, gpu, format] { return profiles(ctx.out, ctx.catalog, *gpu, *format); }; });
  }
  {
    auto* cmd = mig->add_subcommand("validate", "Does a set of profiles fit on one GPU? exit 0 yes, 1 no");
    auto gpu = std::make_shared<std::string>();
    auto tokens = std::make_shared<std::vector<std::string>>();
    auto format = std::make_shared<OutputFormat>(OutputFormat::table);
    cmd->add_option("gpu", *gpu, gpu_help)->required();
    cmd->add_option("profiles", *tokens, profiles_help)->required();
    add_format_option(*cmd, *format, {"table", "json"});
    cmd->callback([&ctx, gpu, tokens, format] {
      ctx.action = [&ctx, gpu, tokens, format] { return validate(ctx.out, ctx.catalog, *gpu, *tokens, *format); };
    });
  }
  {
    auto* cmd = mig->add_subcommand("layouts", "Every layout that fits, each with a placement and creation order");
    auto gpu = std::make_shared<std::string>();
    auto options = std::make_shared<MigEnumerateOptions>();
    auto format = std::make_shared<OutputFormat>(OutputFormat::table);
    cmd->add_option("gpu", *gpu, gpu_help)->required();
    cmd->add_flag("--maximal", options->maximal_only, "Only layouts to which no further instance can be added");
    cmd->add_flag("--media", options->include_variants, "Include media-extension and other variant profiles");
    add_format_option(*cmd, *format, {"table", "json", "mig-parted"});
    cmd->callback([&ctx, gpu, options, format] {
      ctx.action = [&ctx, gpu, options, format] { return layouts(ctx.out, ctx.catalog, *gpu, *options, *format); };
    });
  }
  {
    auto* cmd = mig->add_subcommand("capacity", "Concurrent workloads a layout serves, with sharing per instance");
    auto args = std::make_shared<CapacityArgs>();
    cmd->add_option("gpu", args->gpu, gpu_help)->required();
    cmd->add_option("profiles", args->tokens, profiles_help)->required();
    auto* ts = cmd->add_option("--time-slicing", args->time_slicing, "Time-slicing replicas per instance")
                   ->check(CLI::Range(1, 1024));
    auto* mps = cmd->add_option("--mps", args->mps, "MPS clients per instance (capped by the scaled MPS limit)")
                    ->check(CLI::Range(1, 1024));
    ts->excludes(mps);
    cmd->add_option("--cuda", args->cuda, "CUDA version for the MPS client limit (48 up to 13.0, 60 from 13.1)")
        ->default_str(kDefaultCudaVersion.to_string());
    add_format_option(*cmd, args->format, {"table", "json"});
    cmd->callback([&ctx, args] { ctx.action = [&ctx, args] { return capacity(ctx.out, ctx.catalog, *args); }; });
  }
}

}  // namespace gpupack
