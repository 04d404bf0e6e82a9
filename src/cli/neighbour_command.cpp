// `gpupack neighbour [--kind dram|compute] [--duration S]`: the standard neighbour, a DRAM-bandwidth-bound
// STREAM triad (or FMA chains on every SM, for `profile --compute-neighbour-cmd`) that speaks the client report.
// `gpupack profile --sweep` runs each program beside the triad (docs/profile.md, "The standard neighbour");
// users can run it by hand beside their own programs, or give it to --neighbour-cmd.
#include <iostream>
#include <memory>
#include <string>

#include "bench/worker.hpp"
#include "cli/command.hpp"
#include "measure/client_report.hpp"

namespace gpupack {

void register_neighbour_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand(
      "neighbour", "Run the standard neighbour: a DRAM-bound STREAM triad (1.5 GiB), or with --kind compute FMA chains on every SM, that writes the client report; profile --sweep measures each program beside the triad");
  auto options = std::make_shared<bench::StandardNeighbourOptions>();
  cmd->add_option("--duration", options->duration_s, "Seconds of requests after its ready line (then it exits)")
      ->check(CLI::Range(0.1, 864000.0))
      ->capture_default_str();
  auto kind = std::make_shared<std::string>("dram");
  cmd->add_option("--kind", *kind,
                  "dram: STREAM's triad, bound by the DRAM bandwidth; compute: FMA chains on every SM, no DRAM traffic; "
                  "reporter: 32 short kernels a request, launch-bound, whose time grows with how long other programs' blocks hold the SMs")
      ->check(CLI::IsMember({"dram", "compute", "reporter"}))
      ->capture_default_str();
  cmd->add_option("--iters", options->compute_iters,
                  "--kind compute: FMA iterations a thread a kernel; a kernel's blocks hold their SMs until it ends, so more iterations hold them longer")
      ->check(CLI::Range(1L, 100000000L))
      ->capture_default_str();
  cmd->add_option("--warmup", options->warmup_requests, "Requests before its ready line")->check(CLI::Range(0, 10000))->capture_default_str();
  cmd->callback([&ctx, options, kind] {
    ctx.action = [&ctx, options, kind] {
      bench::StandardNeighbourOptions o = *options;
      o.kind = *kind == "compute"    ? bench::NeighbourKind::compute
               : *kind == "reporter" ? bench::NeighbourKind::reporter
                                     : bench::NeighbourKind::dram;
      o.report_path = ctx.env.vars.get(measure::kReportEnv).value_or("");
      o.go_path = ctx.env.vars.get(measure::kGoEnv).value_or("");
      return bench::run_standard_neighbour(o, ctx.out, std::cerr);
    };
  });
}

}  // namespace gpupack
