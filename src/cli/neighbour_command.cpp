// `gpupack neighbour [--duration S]`: the standard neighbour, a DRAM-bandwidth-bound STREAM triad that
// speaks the client report. `gpupack profile --sweep` runs each program beside it (docs/profile.md, "The
// standard neighbour"); users can run it by hand beside their own programs, or give it to --neighbour-cmd.
#include <iostream>

#include "bench/worker.hpp"
#include "cli/command.hpp"
#include "measure/client_report.hpp"

namespace gpupack {

void register_neighbour_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand(
      "neighbour", "Run the standard neighbour: a DRAM-bound STREAM triad (1.5 GiB) that writes the client report; profile --sweep measures each program beside it");
  auto options = std::make_shared<bench::StandardNeighbourOptions>();
  cmd->add_option("--duration", options->duration_s, "Seconds of requests after its ready line (then it exits)")
      ->check(CLI::Range(0.1, 864000.0))
      ->capture_default_str();
  cmd->add_option("--warmup", options->warmup_requests, "Requests before its ready line")->check(CLI::Range(0, 10000))->capture_default_str();
  cmd->callback([&ctx, options] {
    ctx.action = [&ctx, options] {
      bench::StandardNeighbourOptions o = *options;
      o.report_path = ctx.env.vars.get(measure::kReportEnv).value_or("");
      o.go_path = ctx.env.vars.get(measure::kGoEnv).value_or("");
      return bench::run_standard_neighbour(o, ctx.out, std::cerr);
    };
  });
}

}  // namespace gpupack
