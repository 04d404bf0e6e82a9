// `gpupack verify plan.json --run WORKLOAD=COMMAND ... [--node N] [--duration S] [--warmup S] [--tolerance F] [--strict]
// [--repeat R] [--scenario FILE] [--search WORKLOAD] [--format json] [--json FILE] [--report FILE.html]`: runs one node's
// placements of a plan on this machine as rendered and compares with the plan's predictions (docs/verify.md).
#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "bench/interrupt.hpp"
#include "bench/mps_session.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "io/input_file.hpp"
#include "cli/profile_loading.hpp"
#include "cli/node_support.hpp"
#include "cli/table.hpp"
#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "io/json_document.hpp"
#include "io/model_parameters_json.hpp"
#include "io/scenario_yaml.hpp"
#include "model/prediction.hpp"
#include "model/profile_baseline.hpp"
#include "mps/mps_control.hpp"
#include "mps/orphaned_daemons.hpp"
#include "contract/plan_json.hpp"
#include "os/scratch_dir.hpp"
#include "verify/verify_driver.hpp"
#include "verify/verify_html.hpp"
#include "verify/verify_verdict.hpp"
#include "verify/run_range.hpp"

namespace gpupack {

namespace {

using namespace verify;

struct VerifyArgs {
  std::string plan, node, scenario, search, report_html, json_file, mps_control = "nvidia-cuda-mps-control";
  std::vector<std::string> runs, plain;
  double duration = 20, warmup = 5, tolerance = 0.25, ready_timeout = 120, stop_grace = 5, sample_interval = 0.5;
  int repeat = 2, search_max = 16, search_step = 1;
  bool solo = true;
  bool measure_alone = false;
  bool strict = false;
  OutputFormat format = OutputFormat::table;
};

std::map<std::string, std::string> parse_runs(const std::vector<std::string>& runs) {
  std::map<std::string, std::string> out;
  for (const auto& r : runs) {
    const auto eq = r.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == r.size()) {
      throw InputError("--run " + r + ": expected WORKLOAD=COMMAND (e.g. --run ranker='python3 ranker.py')");
    }
    if (!out.emplace(r.substr(0, eq), r.substr(eq + 1)).second) throw InputError("--run " + r.substr(0, eq) + ": given twice");
  }
  return out;
}

// The program a command starts (its first word after VAR=value assignments), when it is a plain word: a
// command that is not found fails here, before anything runs. Shell syntax is left to the shell.
void require_program(const std::string& workload, const std::string& command, const ProcessRunner& runner) {
  static const std::set<std::string> kShellWords{"exec", "cd", "if", "for", "while", "case", "{", "(", "!", "time", "set", "export", "."};
  std::istringstream words(command);
  std::string word;
  while (words >> word && word.find('=') != std::string::npos && word.front() != '=') {
  }
  if (word.empty() || kShellWords.count(word) || word.find_first_of("'\"$`\\;&|<>(){}") != std::string::npos) return;
  if (!runner.find_program(word)) {
    throw InputError(fmt::format("--run {}=...: command '{}' not found (not a file and not on PATH)", workload, word));
  }
}

// The SLOs of --scenario, and its workloads with their profiles.
Scenario read_scenario(const Filesystem& fs, const GpuCatalog& catalog, const std::string& path,
                       const ModelParameters& parameters, SetupRequest& request) {
  if (path.empty()) return {};
  Scenario scenario = parse_scenario_yaml(read_input_file(fs, path), path, catalog);
  attach_profiles(fs, scenario, path, "", catalog, parameters);
  for (const auto& w : scenario.workloads) {
    if (w.latency_slo_ms) {
      request.slo_ms[w.name] = *w.latency_slo_ms;
      request.slo_margin[w.name] = w.slo_margin.value_or(0);
    }
  }
  return scenario;
}

// The base --measure-alone compares this machine with: each profiled workload alone on the slice of the
// plan that first holds it, as the profile model predicts it there. A profile measured on another GPU model
// (or on a whole GPU where the plan gives a MIG slice) is scaled as the plan's predictions are, so the drift
// is this machine's, not the two models' difference (and rebased errors do not count the scaling twice).
void add_profile_alone(const Scenario& scenario, const PlanDocument& plan, const GpuCatalog& catalog,
                       const ModelParameters& parameters, SetupRequest& request) {
  // The node verify runs (build_setup's choice: --node, else the plan's first).
  const std::string node = request.node.value_or(plan.nodes.empty() ? "" : plan.nodes.front());
  const auto holds = [](const DocSlice& slice, const std::string& workload) {
    return std::any_of(slice.clients.begin(), slice.clients.end(), [&](const DocPlacement& c) { return c.workload == workload; });
  };
  for (const auto& w : scenario.workloads) {
    if (!w.profile) continue;
    ProfileAlone alone{w.profile->p99_ms, w.profile->req_per_s, "", {}, std::nullopt};
    for (const auto& gpu : plan.gpus) {
      if (gpu.node != node) continue;
      const GpuModel* model = catalog.find(gpu.model);
      const auto home = std::find_if(gpu.slices.begin(), gpu.slices.end(), [&](const DocSlice& s) { return holds(s, w.name); });
      if (!model || home == gpu.slices.end()) continue;
      const int mig = home->profile && model->mig ? model->mig->find_profile(*home->profile) : -1;
      const SliceCapacity capacity = slice_capacity(*model, mig);
      const ClientOutcome p = predict({Sharing::exclusive, capacity}, {ModelClient{&w, 1, 0.0, std::nullopt}}, parameters).clients.front();
      // Alone on a slice, the model extrapolates only by scaling to another GPU; a profile from a GPU the
      // catalog does not know (no SM count) is marked extrapolated but not scaled.
      const bool scaled = p.extrapolated && w.profile->gpu_sms > 0;
      // The baseline the plan's prediction rests on: the MPS 100% one on an MPS slice where measured.
      const ProfileBaseline* base = home->sharing == Sharing::mps
                                        ? mps_planning_baseline(*w.profile)
                                        : (w.profile->baseline ? &*w.profile->baseline : nullptr);
      alone = {p.p99_ms, p.req_per_s, scaled ? w.profile->gpu_model : "", verify::run_range_of(base), std::nullopt};
      break;
    }
    // The host's speed where the profile ran: its plain baseline's runs time it, else its MPS one's.
    for (const auto* b : {&w.profile->baseline, &w.profile->mps_baseline}) {
      if (!alone.host_core_work_ms && *b) alone.host_core_work_ms = (*b)->host_core_work_ms;
    }
    request.profile_alone[w.name] = alone;
  }
}

std::string num(const std::optional<double>& v, int digits = 2) { return v ? fmt::format("{:.{}f}", *v, digits) : "-"; }
std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:+.0f}%", *v * 100) : "-"; }
std::string spread(const Measured& m) { return m.spread() ? fmt::format("{:.0f}%", *m.spread() * 100) : "-"; }

// Shared stalls (verify/shared_stalls.hpp) per slice, and the replicas they touched often enough to name.
void print_stalls(std::ostream& out, const VerifyReport& r) {
  for (const auto& sl : r.slices) {
    const SliceStalls& st = sl.stalls;
    if (st.events == 0) continue;
    out << fmt::format("\nshared stalls on {}: {} in {:.1f} s ({:.1f} a second), each {:.1f} ms beyond the stalled requests' median "
                       "(at most {:.1f}){}\n",
                       sl.slice, st.events, st.seconds, st.per_second(), st.mean_ms, st.max_ms,
                       st.aligned_with ? ", in step with " + *st.aligned_with + "'s requests" : "");
    for (const auto& v : r.replicas) {
      const auto hit = v.stall_hit_fraction.mean();
      if (v.slice != sl.slice || !hit || !stalls_worth_naming(v)) continue;
      out << fmt::format("  {}-{}: {:.1f}% of its requests met one; p99 {} ms, {} ms without them{}\n", v.workload, v.replica, *hit * 100,
                         num(v.p99_ms.mean()), num(v.p99_without_stalls_ms.mean()),
                         v.p99_error_without_stalls ? " (" + pct(v.p99_error_without_stalls) + " off the prediction)" : "");
    }
  }
}

void print_table(std::ostream& out, const VerifyReport& r) {
  out << fmt::format("node {}: {} repeat(s) of a {:.1f} s window after {:.1f} s warm-up; tolerance {:.0f}%\n", r.node, r.repeat,
                     r.duration_s, r.warmup_s, r.tolerance * 100);
  for (const auto& n : r.notes) out << "note: " << n << '\n';
  for (const auto& a : r.alone) {
    if (a.source == "profile") {
      out << fmt::format("alone: {} not run (the plan's profile predicts every replica; --measure-alone runs it)\n", a.workload);
      continue;
    }
    out << fmt::format("alone: {} p99 {} ms (spread {}), {} req/s ({})", a.workload, num(a.p99_ms.mean()), spread(a.p99_ms),
                       num(a.req_per_s.mean(), 1), a.source);
    if (a.p99_drift() || a.req_per_s_drift()) {
      out << fmt::format("; its profile{}: p99 {} ms, {} req/s: this machine {} p99, {} req/s",
                         a.profile_scaled_from.empty() ? "" : " (measured on " + a.profile_scaled_from + ", scaled to this GPU)",
                         num(a.profile_p99_ms), num(a.profile_req_per_s, 1), pct(a.p99_drift()), pct(a.req_per_s_drift()));
    }
    out << '\n';
  }
  Table t({"replica", "slice", "predicted by", "p99 pred", "p99 meas", "err", "spread", "req/s pred", "req/s meas", "err", "spread", "SLO", "verdict"});
  bool plain = false;
  for (const auto& v : r.replicas) {
    plain = plain || !v.reports;
    std::string slo = v.slo_ms ? fmt::format("{:.1f} {}", *v.slo_ms, v.slo_met == true ? "met" : v.slo_met == false ? "BROKEN" : "?") : "-";
    const Verdict rv = replica_verdict(v);
    std::string verdict = rv == Verdict::fail ? "FAIL" : rv == Verdict::warn ? "WARN" : "ok";
    for (const auto& p : v.problems()) verdict += "; " + p;
    if (!v.reports) {
      verdict += " (no client report: memory, crashes, GPU activity only";
      verdict += v.gpu_seen ? ")" : "; never seen on the GPU)";
    }
    const std::string by = v.prediction_source == "none" ? "-" : v.prediction_source + (v.extrapolated ? " (extrapolated)" : "");
    t.add({v.workload + "-" + std::to_string(v.replica), v.slice, by, num(v.predicted_p99_ms), num(v.p99_ms.mean()), pct(v.p99_error),
           spread(v.p99_ms), num(v.predicted_req_per_s, 1), num(v.req_per_s.mean(), 1), pct(v.throughput_error), spread(v.req_per_s),
           slo, verdict});
  }
  t.print(out);
  Table rebased({"replica", "p99 err", "rebased", "req/s err", "rebased"});
  bool any_rebased = false;
  for (const auto& v : r.replicas) {
    if (!v.rebased_p99_error && !v.rebased_throughput_error) continue;
    any_rebased = true;
    rebased.add({v.workload + "-" + std::to_string(v.replica), pct(v.p99_error), pct(v.rebased_p99_error), pct(v.throughput_error),
                 pct(v.rebased_throughput_error)});
  }
  if (any_rebased) {
    out << "\nprofile predictions rebased on this machine's solo runs (x measured alone here / profile alone):\n";
    rebased.print(out);
  }
  Table s({"slice", "sharing", "req/s pred", "req/s meas", "err", "worst p99 pred", "worst p99 meas", "err", "SLO"});
  for (const auto& v : r.slices) {
    s.add({v.slice, v.sharing, num(v.predicted_req_per_s, 1), num(v.measured_req_per_s, 1), pct(v.throughput_error),
           num(v.predicted_worst_p99_ms), num(v.measured_worst_p99_ms), pct(v.p99_error),
           v.slo_met ? (*v.slo_met ? "met" : "BROKEN") : "-"});
  }
  out << '\n';
  s.print(out);
  for (const auto& v : r.slices) {
    if (v.has_activity()) out << fmt::format("GPU activity on {} in the window (GPM, of the whole): {}\n", v.slice, v.activity_text());
  }
  print_stalls(out, r);
  if (r.search) {
    out << fmt::format("\ndensity search: {} on {}: the plan placed {}, at most {}{} fit{}{}\n", r.search->workload, r.search->slice,
                       r.search->planned, r.search->most_that_fit, r.search->capped ? " (or more: --search-max reached)" : "",
                       r.search->planned_share_text(), r.search->knee_text());
    if (r.search->unplaced > 0) out << "  " << r.search->unplaced_text() << '\n';
    for (const auto& st : r.search->steps) {
      out << fmt::format("  {} replica(s): {}{}{}\n", st.replicas, st.fits ? "fits" : "does not fit: ", st.why,
                         st.aggregate_req_per_s ? fmt::format(" ({:.0f} req/s of {} together)", *st.aggregate_req_per_s, r.search->workload) : "");
    }
  }
  if (const std::string targets = verify::targets_text(r); !targets.empty()) out << targets << '\n';
  out << "verify: " << verdict_text(r) << '\n';
}

int run_verify_command(const VerifyArgs& a, const CommandContext& ctx) {
  std::ostream& out = ctx.out;
  // The one bounded reader and JSON parser of the io layer (every bad plan, 1e999 included, is exit 2), then
  // the contract's one plan reader: placements, limits and predictions all come from the typed plan.
  const PlanDocument plan = read_plan_json(parse_json_document(read_input_file(ctx.env.fs, a.plan), a.plan + ": not a plan JSON",
                                                               "give the output of `gpupack plan --format json`"),
                                           ctx.catalog);
  SetupRequest request;
  request.runs = parse_runs(a.runs);
  request.plain = a.plain;
  if (!a.node.empty()) request.node = a.node;
  if (!a.report_html.empty()) check_output_file(ctx.env.fs, "--report", a.report_html);
  if (!a.json_file.empty()) check_output_file(ctx.env.fs, "--json", a.json_file);
  // The model the plan was made with ($.model.parameters; the built-in one for plans without the record).
  const ModelParameters parameters = model_parameters_from_record(plan.model.parameters, a.plan);
  const Scenario scenario = read_scenario(ctx.env.fs, ctx.catalog, a.scenario, parameters, request);
  add_profile_alone(scenario, plan, ctx.catalog, parameters, request);

  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    const VerifySetup setup = build_setup(plan, request, gpu.devices());
    for (const auto& [workload, command] : request.runs) require_program(workload, command, os.runner);
    bool mps = false;
    for (const auto& s : setup.slices) mps = mps || s.mps.has_value();
    if (mps && !os.runner.find_program(a.mps_control)) {
      throw InputError("--mps-control " + a.mps_control + ": not found; the plan has MPS slices, which need nvidia-cuda-mps-control");
    }
    if (mps && bench::is_nvidia_mps_control(a.mps_control)) {
      for (const auto& line : quit_orphaned_daemons(os.runner, os.fs, os.clock, a.mps_control)) std::cerr << "gpupack verify: " << line << '\n';
      if (const auto pids = bench::foreign_mps_processes(os.fs); !pids.empty()) {
        std::cerr << "gpupack verify: an MPS daemon not started by gpupack already runs (pid " << pids.front()
                  << ") and owns the GPU; stop it (echo quit | nvidia-cuda-mps-control) to verify MPS slices\n";
        return exit_code::unavailable;
      }
    }
    const ScratchDir scratch(ctx.env, "gpupack-verify");
    const bench::InterruptGuard guard;
    DriverOptions o;
    o.session.warmup_s = a.warmup;
    o.session.duration_s = a.duration;
    o.session.sample_s = a.sample_interval;
    o.session.ready_timeout_s = a.ready_timeout;
    o.session.stop_grace_s = a.stop_grace;
    o.session.mps_control = a.mps_control;
    o.session.interrupted = [] { return bench::interrupt_requested(); };
    o.scratch_dir = scratch.path();
    o.repeat = a.repeat;
    o.solo = a.solo;
    o.measure_alone = a.measure_alone;
    if (!a.search.empty()) o.search = a.search;
    o.search_max = a.search_max;
    o.search_step = a.search_step;
    o.tolerance = a.tolerance;
    o.strict = a.strict;
    o.progress = [](const std::string& line) { std::cerr << line << '\n'; };
    PinnedCpuWorkProbe cpu_probe;
    SessionDeps deps{os.runner, os.fs, os.clock, os.proc, &gpu,
                     [&os](const std::string& path) { return std::make_unique<measure::FileReportSource>(os.fs, path); },
                     &cpu_probe};
    VerifyReport report;
    try {
      report = run_verify(setup, o, deps);
    } catch (const VerifyFailure& e) {
      std::cerr << "gpupack verify: " << e.what() << "; everything was stopped\n";
      return exit_code::negative;
    } catch (const VerifyInterrupted&) {
      std::cerr << "gpupack verify: interrupted; everything was stopped\n";
      return 128 + bench::interrupt_signal();
    }
    if (!a.report_html.empty()) write_output_file(ctx.env.fs, a.report_html, render_verify_html(report, a.plan));
    const std::string json = !a.json_file.empty() || a.format == OutputFormat::json ? to_json(report).dump(2) + "\n" : "";
    if (!a.json_file.empty()) write_output_file(ctx.env.fs, a.json_file, json);
    if (a.format == OutputFormat::json) {
      out << json;
    } else {
      print_table(out, report);
    }
    return verify_exit_code(report);
  });
}

}  // namespace

void register_verify_command(CLI::App& app, CommandContext& ctx) {
  auto a = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand("verify", "Run a plan's placements on this machine as rendered and compare with its predictions");
  cmd->add_option("plan", a->plan, "Plan JSON (gpupack plan --format json)")->required();
  cmd->add_option("--run", a->runs, "WORKLOAD=COMMAND: the program of a workload (run through /bin/sh -c); one per placed workload")->required();
  cmd->add_option("--plain", a->plain, "WORKLOAD whose program does not speak the client report (memory, crashes, GPU activity only)");
  cmd->add_option("--node", a->node, "The plan's node to verify (default: its first)");
  cmd->add_option("--scenario", a->scenario, "The scenario the plan came from: its latency_slo_ms are the SLOs checked");
  cmd->add_option("--duration", a->duration, "Seconds of each measured window")->check(CLI::Range(0.05, 86400.0))->capture_default_str();
  cmd->add_option("--warmup", a->warmup, "Seconds after the release before the window")->check(CLI::Range(0.0, 3600.0))->capture_default_str();
  cmd->add_option("--sample-interval", a->sample_interval,
                  "Seconds between GPU samples (per-process memory, GPM activity); each sample takes the driver's lock")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  cmd->add_option("--tolerance", a->tolerance, "Largest accepted |prediction error| (fraction)")->check(CLI::Range(0.0, 100.0))->capture_default_str();
  cmd->add_flag("--strict", a->strict,
                "Exit 1 also when a prediction error is over --tolerance (by default a warning: exit 1 is for a broken SLO, "
                "a crash, memory over its limit)");
  cmd->add_option("--repeat", a->repeat, "Runs of each configuration (the spread is reported)")->check(CLI::Range(1, 100))->capture_default_str();
  // Two plain flags rather than CLI11's "--solo,!--no-solo", whose help shows "--solo,--no-solo{false}".
  cmd->add_flag_callback("--no-solo", [a] { a->solo = false; }, "Skip measuring each workload alone first (by default its p99 and req/s alone are measured)");
  cmd->add_flag_callback("--solo", [a] { a->solo = true; }, "")->group("");
  cmd->add_flag("--measure-alone", a->measure_alone,
                "Also run workloads the plan's profiles predict alone first: report this machine's drift from "
                "the profiles and the errors of the predictions rebased on it (needs --scenario)");
  cmd->add_option("--search", a->search, "WORKLOAD: on its slice, add replicas until an SLO breaks (needs --scenario)");
  cmd->add_option("--search-max", a->search_max, "Most replicas the search tries")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--search-step", a->search_step,
                  "Replicas the search adds per step; a break is bisected to one replica")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--ready-timeout", a->ready_timeout, "Seconds a replica may take to write its ready line")->check(CLI::Range(0.1, 86400.0))->capture_default_str();
  cmd->add_option("--stop-grace", a->stop_grace, "Seconds between SIGTERM and SIGKILL when stopping")->check(CLI::Range(0.0, 600.0))->capture_default_str();
  cmd->add_option("--report", a->report_html, "Also write an HTML report (table and charts) to this file");
  cmd->add_option("--json", a->json_file, "Also write the JSON report (docs/json.md) to this file, whatever --format prints");
  cmd->add_option("--mps-control", a->mps_control, "The nvidia-cuda-mps-control program for the private daemons")->capture_default_str();
  add_format_option(*cmd, a->format, {"table", "json"});
  cmd->callback([&ctx, a] {
    if (!a->search.empty() && a->scenario.empty()) throw InputError("--search " + a->search + ": needs --scenario (the SLO it searches under)");
    if (a->measure_alone && a->scenario.empty()) throw InputError("--measure-alone: needs --scenario (the profiles it compares with)");
    ctx.action = [&ctx, a] { return run_verify_command(*a, ctx); };
  });
}

}  // namespace gpupack
