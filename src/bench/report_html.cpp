#include "bench/report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bench/bench_json.hpp"
#include "bench/metrics.hpp"
#include "bench/svg_chart.hpp"
#include "bench/verdicts.hpp"
#include "measure/sm_share_sweep.hpp"

namespace gpupack::bench {

namespace {

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:900px;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;font-size:.9em}
.pass{color:#1a7f37;font-weight:bold}.fail{color:#cf222e;font-weight:bold}.skipped{color:#777}
svg.chart{display:block;margin:1em 0;font-size:11px}svg .title{font-size:14px;font-weight:bold}
svg .grid{stroke:#eee}svg .ref{stroke:#555;stroke-dasharray:4 3}svg .axis{fill:#444}
)";

std::string cell(const std::string& text) { return "<td>" + escape_xml(text) + "</td>"; }

std::string device_section(const BenchResults& r) {
  const DeviceInfo& d = r.device;
  std::string rows;
  auto row = [&](const std::string& k, const std::string& v) { rows += "<tr><th>" + escape_xml(k) + "</th>" + cell(v) + "</tr>"; };
  row("GPU", d.name);
  row("UUID", d.uuid);
  row("compute capability", d.compute_capability);
  row("SMs", std::to_string(d.sm_count));
  row("memory", fmt::format("{:.1f} GiB", static_cast<double>(d.memory_bytes) / (1024.0 * 1024 * 1024)));
  row("driver", d.driver_version.empty() ? "unknown" : d.driver_version);
  row("CUDA (driver / runtime)", d.cuda_driver_version + " / " + d.cuda_runtime_version);
  row("compute mode", d.compute_mode);
  row("MIG mode", d.mig_mode.empty() ? "unknown / not supported" : d.mig_mode);
  row("started", r.started_at);
  row("duration", fmt::format("{:.1f} s", r.elapsed_s));
  row("command", r.command_line);
  return "<h2>Device</h2><table>" + rows + "</table>";
}

std::string verdict_section(const BenchResults& r) {
  std::string rows;
  for (const auto& v : verdicts(r)) {
    const char* cls = v.outcome == Outcome::pass ? "pass" : v.outcome == Outcome::fail ? "fail" : "skipped";
    rows += "<tr>" + cell(v.finding) + fmt::format(R"(<td class="{}">{}</td>)", cls, to_string(v.outcome)) +
            cell(v.measured.empty() ? "-" : v.measured) + cell(v.expected) + "</tr>";
  }
  std::string skipped;
  for (const auto& s : r.skipped) skipped += "<li>" + escape_xml(s.part + ": " + s.reason) + "</li>";
  return "<h2>Does this GPU reproduce the lab's findings?</h2><table><tr><th>finding</th><th>outcome</th><th>measured</th>"
         "<th>expected</th></tr>" +
         rows + "</table>" + (skipped.empty() ? "" : "<p>Skipped:</p><ul>" + skipped + "</ul>");
}

std::string throughput_section(const BenchResults& r) {
  if (r.clients.empty()) return "";
  std::vector<std::string> modes;
  for (const auto& c : r.clients) {
    if (c.mode != "mig" && std::find(modes.begin(), modes.end(), c.mode) == modes.end()) modes.push_back(c.mode);
  }
  BarChart slow{"Per-client time with K clients, relative to one", "x of K=1", {}, {}, 1.0, false};
  BarChart agg{"Aggregate throughput of K clients, relative to one", "x of K=1", {}, {}, 1.0, false};
  for (int k : r.plan.ks) {
    slow.categories.push_back("K=" + std::to_string(k));
    agg.categories.push_back("K=" + std::to_string(k));
  }
  for (const auto& m : modes) {
    BarSeries s{m, {}}, a{m, {}};
    for (int k : r.plan.ks) {
      s.values.push_back(slowdown(r, m, k));
      a.values.push_back(aggregate_throughput(r, m, k));
    }
    slow.series.push_back(s);
    agg.series.push_back(a);
  }
  std::string out = "<h2>Throughput by mode and K</h2><p>Each client runs the same fixed FMA work (" +
                    std::to_string(r.plan.client_blocks) + " blocks x " + std::to_string(r.plan.client_threads) +
                    " threads, leaving most SMs free).</p>" + render_bar_chart(slow) + render_bar_chart(agg);
  std::string mig_rows;
  for (const auto& c : r.clients) {
    if (c.mode != "mig") continue;
    const auto v = slowdown(r, "mig", c.k, c.target);
    mig_rows += "<tr>" + cell(c.target) + cell(std::to_string(c.k)) + cell(v ? fmt::format("{:.2f}x", *v) : "-") + "</tr>";
  }
  if (!mig_rows.empty()) out += "<h3>MIG instances</h3><table><tr><th>instance</th><th>K</th><th>per-client time</th></tr>" + mig_rows + "</table>";
  return out;
}

std::string streams_section(const BenchResults& r) {
  if (!r.streams) return "";
  BarChart c{"CUDA streams: speedup over serial execution", "speedup (x)", {}, {{"speedup", {}}}, 1.0, false};
  for (const auto& s : r.streams->kernels) {
    c.categories.push_back(std::to_string(s.k) + " kernels");
    c.series[0].values.push_back(stream_speedup(r, s.k));
  }
  c.categories.push_back("copy/compute");
  c.series[0].values.push_back(copy_overlap_speedup(r));
  return "<h2>Streams</h2>" + render_bar_chart(c);
}

std::string latency_section(const BenchResults& r) {
  if (r.isolation.empty()) return "";
  LineChart cdf{"Latency distribution of the latency-critical client", "latency (us, log scale)", "percentile", {}, true};
  BarChart pct{"Latency percentiles per setting", "us (log scale)", {}, {{"p50", {}}, {"p99", {}}, {"p99.9", {}}}, std::nullopt, true};
  BarChart nb{"Neighbour throughput beside the client, fraction of alone", "fraction", {}, {{"neighbour", {}}}, 1.0, false};
  std::string rows;
  for (const auto& run : r.isolation) {
    LineSeries s{run.setting, {}};
    std::vector<double> sorted = run.latency_us;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    for (int i = 0; i <= 200 && n > 0; ++i) {
      // Denser near the tail, where the settings differ.
      const double q = 1 - std::pow(10, -3.0 * i / 200);
      s.points.emplace_back(quantile(sorted, q), q * 100);
    }
    cdf.series.push_back(s);
    const LatencySummary sum = summarize(run.latency_us);
    pct.categories.push_back(run.setting);
    pct.series[0].values.push_back(sum.p50);
    pct.series[1].values.push_back(sum.p99);
    pct.series[2].values.push_back(sum.p999);
    const auto frac = neighbour_fraction(r, run.setting);
    if (run.setting != "alone") {
      nb.categories.push_back(run.setting);
      nb.series[0].values.push_back(frac);
    }
    const auto infl = p99_inflation(r, run.setting);
    rows += "<tr>" + cell(run.setting) + cell(fmt::format("{:.0f}", sum.p50)) + cell(fmt::format("{:.0f}", sum.p99)) +
            cell(fmt::format("{:.0f}", sum.p999)) + cell(infl ? fmt::format("{:.2f}x", *infl) : "-") +
            cell(frac ? fmt::format("{:.0f}%", *frac * 100) : "-") + "</tr>";
  }
  return "<h2>Latency isolation</h2><p>A latency-critical client (" + std::to_string(r.plan.latency_samples) +
         " synchronous requests of about " + fmt::format("{:.0f}", r.plan.latency_kernel_us) +
         " us each) alone and beside a saturating GEMM neighbour.</p>" + render_line_chart(cdf) + render_bar_chart(pct) +
         render_bar_chart(nb) +
         "<table><tr><th>setting</th><th>p50 us</th><th>p99 us</th><th>p99.9 us</th><th>p99 vs alone</th><th>neighbour</th></tr>" +
         rows + "</table>";
}

std::string limits_section(const BenchResults& r) {
  if (r.thread_limits.empty() && !r.memory_limit) return "";
  std::string out = "<h2>Limit checks (MPS)</h2>";
  if (!r.thread_limits.empty()) {
    BarChart c{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE: throughput vs expected share", "fraction of 100%", {},
               {{"expected", {}}, {"measured", {}}}, std::nullopt, false};
    std::string rows;
    for (const auto& t : r.thread_limits) {
      c.categories.push_back(std::to_string(t.percent) + "%");
      c.series[0].values.push_back(expected_fraction(t));
      c.series[1].values.push_back(measured_fraction(t));
      rows += "<tr>" + cell(std::to_string(t.percent) + "%") + cell(std::to_string(t.sms_seen) + " / " + std::to_string(t.sm_total)) +
              cell(fmt::format("{:.3f}", expected_fraction(t))) + cell(fmt::format("{:.3f}", measured_fraction(t))) + "</tr>";
    }
    out += render_bar_chart(c) + "<table><tr><th>cap</th><th>SMs seen</th><th>expected</th><th>measured</th></tr>" + rows + "</table>";
  }
  if (const auto& m = r.memory_limit) {
    out += "<table><tr><th>CUDA_MPS_PINNED_DEVICE_MEM_LIMIT</th><th>allocation</th><th>result</th></tr><tr>" +
           cell(std::to_string(m->limit_mib) + " MiB") + cell(std::to_string(m->within_mib) + " MiB (within)") +
           cell(m->within_ok ? "succeeded" : "failed: " + m->within_error) + "</tr><tr>" + cell("") +
           cell(std::to_string(m->beyond_mib) + " MiB (beyond)") +
           cell(m->beyond_failed ? "refused: " + m->beyond_error : "succeeded (limit NOT enforced)") + "</tr></table>";
  }
  return out;
}

LineSeries curve_series(const std::string& name, const std::vector<measure::CurvePoint>& points) {
  LineSeries s{name, {}};
  for (const auto& p : points) s.points.emplace_back(p.k, p.value);
  return s;
}

std::string optional_cell(const std::optional<double>& v, const char* format) {
  return cell(v ? fmt::format(fmt::runtime(format), *v) : "-");
}

std::string grid_row(const measure::ColocationGrid& g, const measure::GridCell& c) {
  std::string note = c.error;
  if (note.empty() && c.k > 0 && !measure::latency_reported(c)) note = "request latency was not reported";
  long malformed = c.neighbour ? c.neighbour->malformed_lines : 0;
  for (const auto& copy : c.copies) malformed += copy.malformed_lines;
  if (malformed > 0) note += (note.empty() ? "" : "; ") + std::to_string(malformed) + " malformed report line(s) ignored";
  std::optional<double> p50;
  for (const auto& copy : c.copies) {
    if (copy.p50_ms) p50 = std::max(p50.value_or(0.0), *copy.p50_ms);
  }
  const auto neighbour_rate = c.neighbour ? c.neighbour->req_per_s : std::nullopt;
  return "<tr>" + cell(measure::cell_label(c)) + optional_cell(measure::aggregate_req_per_s(c), "{:.1f}") +
         optional_cell(p50, "{:.2f}") + optional_cell(measure::worst_p99_ms(c), "{:.2f}") +
         optional_cell(c.k > 0 ? std::optional<double>(measure::mean_wall_s(c)) : std::nullopt, "{:.2f}") +
         optional_cell(c.k > 0 ? measure::mean_gpu_s(c) : std::nullopt, "{:.2f}") +
         optional_cell(neighbour_rate, "{:.1f}") + optional_cell(measure::neighbour_fraction(g, c), "{:.2f}") +
         cell(note) + "</tr>";
}

// --sweep: the program alone under MPS at each active thread percentage (its SM share).
std::string sm_share_part(const BenchResults& r) {
  if (r.sm_share_curve.empty()) return "";
  LineChart chart{"Your program alone: p99 vs SM share (MPS active thread percentage)", "active threads (%)", "p99 (ms)", {}, false};
  LineSeries p99{"p99", {}};
  std::string rows;
  for (const auto& p : r.sm_share_curve) {
    if (p.p99_ms) p99.points.emplace_back(p.pct, *p.p99_ms);
    rows += "<tr>" + cell(std::to_string(p.pct) + "%") + cell(fmt::format("{:.1f}", p.req_per_s)) +
            optional_cell(p.p50_ms, "{:.2f}") + optional_cell(p.p99_ms, "{:.2f}") + "</tr>";
  }
  std::sort(p99.points.begin(), p99.points.end());
  chart.series.push_back(p99);
  const measure::ComputeDemand d = measure::demand_from_sweep(r.sm_share_curve, kSweepTolerance);
  return render_line_chart(chart) + "<table><tr><th>active threads</th><th>req/s</th><th>p50 ms</th><th>p99 ms</th></tr>" + rows +
         "</table>" +
         fmt::format("<p>Compute demand: {:.0f}% (the smallest share whose req/s and p50 stay within "
                     "{:.0f}% and p99 within {:.0f}% of the largest share's; gpupack profile --sweep repeats it).</p>",
                     d.share * 100, kSweepTolerance * 100, d.p99_limit.value_or(0) * 100);
}

// The user's program: aggregate req/s and the worst copy's p99 against K, per mode, from its own reports.
std::string colocation_section(const BenchResults& r) {
  if (!r.colocation) return "";
  const measure::ColocationGrid& g = *r.colocation;
  LineChart agg{"Your program: aggregate req/s of K copies", "K copies at once", "req/s", {}, false};
  LineChart p99{"Your program: the worst copy's p99 with K copies", "K copies at once", "p99 (ms)", {}, false};
  LineChart wall{"Your program: mean wall time of K copies, relative to one", "K copies at once", "x of K=1", {}, false};
  LineChart gpu{"Your program: mean time on the GPU (first GPU use to exit) of K copies, relative to one", "K copies at once",
                "x of K=1", {}, false};
  for (const auto& mode : measure::grid_modes(g)) {
    if (auto points = measure::aggregate_req_per_s_curve(g, mode); !points.empty()) agg.series.push_back(curve_series(mode, points));
    if (auto points = measure::p99_curve(g, mode); !points.empty()) p99.series.push_back(curve_series(mode, points));
    if (auto points = measure::wall_curve(g, mode); !points.empty()) wall.series.push_back(curve_series(mode, points));
    if (auto points = measure::gpu_time_curve(g, mode); !points.empty()) gpu.series.push_back(curve_series(mode, points));
  }
  std::string charts = sm_share_part(r);
  if (!agg.series.empty()) charts += render_line_chart(agg);
  if (!p99.series.empty()) charts += render_line_chart(p99);
  // Only for programs that report nothing: their time on the GPU (start-up left out) where it was watched,
  // else their wall time (start-up included).
  if (agg.series.empty() && !gpu.series.empty()) {
    charts += "<p>Request latency was not reported (the program wrote nothing to GPUPACK_REPORT): each copy is measured "
              "from its first GPU use to its exit.</p>" +
              render_line_chart(gpu);
  } else if (agg.series.empty() && !wall.series.empty()) {
    charts += "<p>Request latency was not reported (the program wrote nothing to GPUPACK_REPORT) and its GPU use was not "
              "watched: only wall time (start-up included) is known.</p>" +
              render_line_chart(wall);
  }
  std::string rows;
  for (const auto& c : g.cells) rows += grid_row(g, c);
  return "<h2>Your program (--client-cmd): co-location grid</h2><p><code>" + escape_xml(g.command) + "</code>" +
         (g.neighbour_command.empty() ? "" : " beside <code>" + escape_xml(g.neighbour_command) + "</code>") +
         fmt::format("; K copies released together after every copy's ready line, measured over {:.1f} s.</p>", g.window_s) +
         charts +
         "<table><tr><th>setting</th><th>aggregate req/s</th><th>p50 ms (worst copy)</th><th>p99 ms (worst copy)</th>"
         "<th>mean wall s</th><th>mean s on the GPU</th><th>neighbour req/s</th><th>neighbour vs alone</th><th>note</th></tr>" +
         rows + "</table>";
}

}  // namespace

std::string render_report(const BenchResults& r) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gpupack bench: " + escape_xml(r.device.name) +
         "</title><style>" + kStyle + "</style></head><body><h1>gpupack bench: " + escape_xml(r.device.name) + "</h1>" +
         device_section(r) + verdict_section(r) + throughput_section(r) + streams_section(r) + latency_section(r) +
         limits_section(r) + colocation_section(r) + "</body></html>\n";
}

}  // namespace gpupack::bench
