#pragma once
// The glue between CLI11 and each subcommand: a subcommand's parse callback stores what to run, and
// main runs it after parsing so that its exit code and exceptions are handled in one place.
#include <CLI/CLI.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "os/env.hpp"

namespace gpupack {

class GpuCatalog;

struct CommandContext {
  std::ostream& out;
  std::function<int()> action;
  Env env;  // the one real Env (os/env.hpp), made in main; commands pass it, or its parts, down
  const GpuCatalog& catalog;  // the one catalog, made in main
};

enum class OutputFormat { table, json, mig_parted, yaml };

// Adds --format to a subcommand, accepting only the given names.
void add_format_option(CLI::App& cmd, OutputFormat& format, const std::vector<std::string>& accepted);

// The MIG profile table (catalog show, mig profiles).
struct MigGeometry;
void print_mig_profiles(std::ostream& out, const MigGeometry& geometry);

void register_catalog_command(CLI::App& app, CommandContext& ctx);
void register_mig_command(CLI::App& app, CommandContext& ctx);
void register_plan_command(CLI::App& app, CommandContext& ctx);
void register_model_command(CLI::App& app, CommandContext& ctx);
void register_bench_command(CLI::App& app, CommandContext& ctx);
void register_gpus_command(CLI::App& app, CommandContext& ctx);
void register_mps_command(CLI::App& app, CommandContext& ctx);
void register_run_command(CLI::App& app, CommandContext& ctx);
void register_profile_command(CLI::App& app, CommandContext& ctx);
void register_agent_command(CLI::App& app, CommandContext& ctx);
void register_labels_command(CLI::App& app, CommandContext& ctx);
void register_neighbour_command(CLI::App& app, CommandContext& ctx);
void register_render_command(CLI::App& app, CommandContext& ctx);
void register_verify_command(CLI::App& app, CommandContext& ctx);
void register_check_command(CLI::App& app, CommandContext& ctx);

// After every command is registered: one example at the end of each subcommand's --help.
void add_help_examples(CLI::App& app);

}  // namespace gpupack
