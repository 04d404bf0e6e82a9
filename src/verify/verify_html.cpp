#include "verify/verify_html.hpp"

#include <fmt/format.h>

#include "bench/svg_chart.hpp"
#include "verify/verify_verdict.hpp"

namespace gpupack::verify {

namespace {

using bench::escape_xml;

std::string cell(const std::optional<double>& v, const char* format = "{:.2f}") {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("-");
}

std::string percent(const std::optional<double>& v) { return v ? fmt::format("{:+.0f}%", *v * 100) : std::string("-"); }

std::string spread(const Measured& m) { return m.spread() ? fmt::format("{:.0f}%", *m.spread() * 100) : std::string("-"); }

}  // namespace

std::string render_verify_html(const VerifyReport& report, const std::string& plan_path) {
  std::string html = fmt::format(R"(<!doctype html>
<html><head><meta charset="utf-8"><title>gpupack verify: {plan}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}
td:first-child,th:first-child{{text-align:left}}.bad{{background:#fdd}}.warn{{background:#ffd}}.good{{background:#dfd}}</style></head><body>
<h1>gpupack verify: {plan}</h1>
<p>Node {node}: window {dur:.1f} s after a {warm:.1f} s warm-up, {repeat} repeat(s), tolerance {tol:.0f}%. Verdict: <b>{verdict}</b>.</p>
)",
                                 fmt::arg("plan", escape_xml(plan_path)), fmt::arg("node", escape_xml(report.node)),
                                 fmt::arg("dur", report.duration_s), fmt::arg("warm", report.warmup_s),
                                 fmt::arg("repeat", report.repeat), fmt::arg("tol", report.tolerance * 100),
                                 fmt::arg("verdict", escape_xml(verdict_text(report))));
  if (const std::string targets = targets_text(report); !targets.empty()) html += "<p>" + escape_xml(targets) + ".</p>\n";
  for (const auto& n : report.notes) html += "<p>Note: " + escape_xml(n) + "</p>\n";
  html += "<h2>Replicas</h2>\n<table><tr><th>replica</th><th>slice</th><th>p99 predicted (ms)</th><th>p99 measured (ms)</th>"
          "<th>error</th><th>spread</th><th>req/s predicted</th><th>req/s measured</th><th>error</th><th>spread</th>"
          "<th>SLO (ms)</th><th>p99 without shared stalls (ms) (error, where they are named)</th><th>problems</th></tr>\n";
  bench::BarChart p99{"p99 per replica", "ms", {}, {{"predicted", {}}, {"measured", {}}}, std::nullopt, false};
  bench::BarChart rps{"throughput per replica", "req/s", {}, {{"predicted", {}}, {"measured", {}}}, std::nullopt, false};
  for (const auto& r : report.replicas) {
    const std::string name = r.workload + "-" + std::to_string(r.replica);
    const Verdict verdict = replica_verdict(r);
    std::string problems;
    for (const auto& p : r.problems()) problems += (problems.empty() ? "" : "; ") + p;
    if (!r.reports) problems += std::string(problems.empty() ? "" : "; ") + "no client report: memory, crashes and GPU activity only";
    html += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        verdict == Verdict::fail ? "bad" : verdict == Verdict::warn ? "warn" : "good", escape_xml(name), escape_xml(r.slice), cell(r.predicted_p99_ms), cell(r.p99_ms.mean()),
                        percent(r.p99_error), spread(r.p99_ms), cell(r.predicted_req_per_s, "{:.1f}"), cell(r.req_per_s.mean(), "{:.1f}"),
                        percent(r.throughput_error), spread(r.req_per_s),
                        r.slo_ms ? fmt::format("{:.2f} ({})", *r.slo_ms, r.slo_met == true ? "met" : r.slo_met == false ? "BROKEN" : "-") : "-",
                        cell(r.p99_without_stalls_ms.mean()) +
                            (r.p99_error_without_stalls ? " (" + percent(r.p99_error_without_stalls) + ")" : ""),
                        escape_xml(problems));
    p99.categories.push_back(name);
    p99.series[0].values.push_back(r.predicted_p99_ms);
    p99.series[1].values.push_back(r.p99_ms.mean());
    rps.categories.push_back(name);
    rps.series[0].values.push_back(r.predicted_req_per_s);
    rps.series[1].values.push_back(r.req_per_s.mean());
  }
  html += "</table>\n" + bench::render_bar_chart(p99) + "\n" + bench::render_bar_chart(rps) + "\n";
  html += "<h2>Slices</h2>\n<table><tr><th>slice</th><th>sharing</th><th>req/s predicted</th><th>req/s measured</th><th>error</th>"
          "<th>worst p99 predicted</th><th>worst p99 measured</th><th>error</th><th>shared stalls</th>"
          "<th>GPU activity in the window (GPM)</th></tr>\n";
  for (const auto& s : report.slices) {
    const SliceStalls& st = s.stalls;
    const std::string stalls =
        st.events == 0 ? "none"
                       : fmt::format("{} ({:.1f}/s, {:.1f} ms each){}", st.events, st.per_second(), st.mean_ms,
                                     st.aligned_with ? ", in step with " + *st.aligned_with : "");
    html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        escape_xml(s.slice), escape_xml(s.sharing), cell(s.predicted_req_per_s, "{:.1f}"),
                        cell(s.measured_req_per_s, "{:.1f}"), percent(s.throughput_error), cell(s.predicted_worst_p99_ms),
                        cell(s.measured_worst_p99_ms), percent(s.p99_error), escape_xml(stalls),
                        s.has_activity() ? escape_xml(s.activity_text()) : "-");
  }
  html += "</table>\n";
  if (report.search) {
    const auto& s = *report.search;
    html += fmt::format("<h2>Density search: {} on {}</h2>\n<p>The plan placed {}; at most {}{} fit{}{}.</p>\n", escape_xml(s.workload),
                        escape_xml(s.slice), s.planned, s.most_that_fit, s.capped ? " (or more: --search-max)" : "",
                        s.planned_share_text(), escape_xml(s.knee_text()));
    if (s.unplaced > 0) html += fmt::format("<p>{}.</p>\n", escape_xml(s.unplaced_text()));
    html += "<table><tr><th>replicas</th><th>fits</th><th>worst p99 (ms)</th><th>req/s together</th><th>why not</th></tr>\n";
    for (const auto& st : s.steps) {
      html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", st.replicas, st.fits ? "yes" : "no",
                          cell(st.worst_p99_ms), cell(st.aggregate_req_per_s, "{:.0f}"), escape_xml(st.why));
    }
    html += "</table>\n";
  }
  return html + "</body></html>\n";
}

}  // namespace gpupack::verify
