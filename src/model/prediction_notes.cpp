#include "model/prediction_notes.hpp"

#include <cstdio>

#include "model/profile_alone.hpp"
#include "model/profile_baseline.hpp"

namespace gpupack {

namespace {

using Kind = ModelNote::Kind;

std::string whole_percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", 100 * share);
  return text;
}

std::string gpu_scaled_note(const ModelNote& s, const Workload& w) {
  const std::string model = w.profile && !w.profile->gpu_model.empty() ? w.profile->gpu_model : "another GPU";
  std::string note = "measured on " + model + " (" + std::to_string(s.n[0]) + " SMs), scaled to " +
                     std::to_string(s.n[1]) + " SMs";
  note += s.flag ? " and " + note_number(s.x[0]) + " GB/s (from " + note_number(s.x[1]) + "; memory-bound share " +
                       note_number(s.x[2]) + " of its busy time)"
                 : " (memory bandwidth not known: not scaled)";
  return note + " by its SM activity " + note_number(s.x[3]) + ": x" + note_number(s.x[4]) + " req/s";
}

// A grid read beside neighbours of other kinds: they count as copies of it by their busy time
// (contention::busy_copies), K = 1 + those.
std::string other_kinds_text(const ModelNote& s) {
  if (!s.flag) return "";
  return " (its own copies; here its neighbours are other workloads, counted as " + note_number(s.x[1] - 1) +
         " copies of it by their busy time)";
}

// A replica's p99 from its grid is the median copy's; the SLO check reads the worst copy's.
std::string worst_copy_text(double ratio) {
  return ratio > 1 ? "; p99 of its median copy, the SLO check reads its worst copy's (x" + note_number(ratio) + ")"
                   : "";
}

std::string contention_note(const ModelNote& s, const ModelParameters& m) {
  const double burst = s.x[2];
  const double contention = s.x[3];
  const double memory = s.x[5];
  return "SM pressure " + note_number(s.x[0]) + ", DRAM " + note_number(s.x[1]) +
         (burst > 0 ? ", bursts of wider neighbours +" + note_number(burst) : "") +
         (contention > 1 ? ": contention x" + note_number(contention) + " on its kernel time share " + note_number(s.x[4])
                         : ": no contention") +
         (memory > m.memory_queueing_note_above ? ", memory queueing x" + note_number(memory) : "") + ": x" +
         note_number(s.x[6]);
}

// "baseline: median of 3 runs alone" (", under MPS at 100%"), and where a flagged baseline widened the
// workload's SLO margin, by how much.
std::string baseline_note(const ModelNote& s, const Workload& w) {
  if (!w.profile) return "";
  const ProfileFacts& p = *w.profile;
  const std::optional<ProfileBaseline>& b = s.flag ? p.mps_baseline : p.baseline;
  if (!b) return "";
  std::string note = "baseline: " + b->source + (s.flag ? " alone under MPS at 100%" : " alone");
  if (const std::string flag = unrepeatable_flag(p); !flag.empty() && w.latency_slo_ms) {
    note += "; " + flag + ": SLO margin " + whole_percent(w.slo_margin.value_or(0)) +
            " (at least baseline_spread_margin x how much slower its slowest run was: " +
            whole_percent(unrepeatable_slowest_run(p).value_or(0)) + ")";
  }
  return note;
}

// "corrected by observation: p99 x0.62, req/s x1.31 (verify.json, 4 replicas)"; where a faster factor was
// left out: "...; not its faster p99 x0.87: measured without stream-triad beside it".
std::string observed_note(const ModelNote& s, const ClientOutcome& outcome) {
  const ObservedCorrection* o = outcome.observed;
  std::string note = "corrected by observation:";
  if (s.x[0] > 0) note += " p99 x" + note_number(s.x[0]);
  if (s.x[1] > 0) note += std::string(s.x[0] > 0 ? "," : "") + " req/s x" + note_number(s.x[1]);
  if (s.x[0] <= 0 && s.x[1] <= 0) note += " none applied";
  std::string files;
  if (o) {
    for (const std::string& f : o->files) files += (files.empty() ? "" : ", ") + f;
  }
  note += " (" + (files.empty() ? "" : files + ", ") + std::to_string(s.n[0]) + (s.n[0] == 1 ? " replica)" : " replicas)");
  if (!s.flag || !o) return note;
  std::string left_out;
  if (o->p99 && s.x[0] <= 0) left_out += " p99 x" + note_number(*o->p99);
  if (o->req_per_s && s.x[1] <= 0) left_out += std::string(left_out.empty() ? "" : ",") + " req/s x" + note_number(*o->req_per_s);
  std::string unseen;
  for (const std::string& w : outcome.observed_unseen) unseen += (unseen.empty() ? "" : ", ") + w;
  return note + "; not its faster" + left_out + ": measured without " + unseen + " beside it";
}

std::string note_text(const ModelNote& s, const Workload& w, Sharing sharing, const ModelParameters& m,
                      const ClientOutcome& outcome) {
  switch (s.kind) {
    case Kind::cap_below_activity:
      return "no SM-share curve: capped at " + std::to_string(s.n[0]) + "% below its SM activity " +
             note_number(s.x[0]) + ", keeps " + note_number(s.x[1]) + " of its req/s, its tail beyond the mean as alone";
    case Kind::cap_below_curve:
      return "cap " + std::to_string(s.n[0]) + "% below the SM-share curve's lowest point (" + std::to_string(s.n[1]) +
             "%): " +
             (s.flag ? "it holds its req/s there and keeps " + note_number(s.x[0]) + "% of the SMs busy, so keeps " +
                           note_number(s.x[1]) + " of its work"
              : s.x.size() > 2 && s.x[2] < 1 - 1e-9
                  ? "its kernels (" + note_number(s.x[2]) + " of its time alone) take x" + note_number(s.x[0] / s.n[0]) +
                        " as long, " + note_number(s.x[2] * s.x[0] / s.n[0]) +
                        " of its time alone; they run while its host launches the next ones, so they lengthen a request "
                        "only past its whole time: it keeps " + note_number(s.x[1]) + " of its work"
                  : std::string("scaled in proportion"));
    case Kind::curve_at_cap:
      return "SM-share curve at " + std::to_string(s.n[0]) + "%";
    case Kind::curve_highest:
      return "SM-share curve at its highest point (" + std::to_string(s.n[0]) + "%)";
    case Kind::gpu_not_in_catalog:
      return "measured on a GPU not in the catalog: not scaled";
    case Kind::gpu_scaled:
      return gpu_scaled_note(s, w);
    case Kind::grid_beyond:
      return grid_mode(sharing) + " K=" + std::to_string(s.n[0]) + " beyond the grid's K=" + std::to_string(s.n[1]) +
             ": aggregate extended along its last step, p99 grown in proportion to K" + other_kinds_text(s) +
             worst_copy_text(s.x[0]);
    case Kind::grid_cell:
      return "co-location grid, " + grid_mode(sharing) + " K=" + std::to_string(s.n[0]) + other_kinds_text(s) +
             worst_copy_text(s.x[0]);
    case Kind::contention:
      return contention_note(s, m);
    case Kind::curve_kernel_stretch:
      return "its SM-share curve from " + std::to_string(s.n[0]) + "% to " + std::to_string(s.n[1]) +
             "% at the " + note_number(s.x[0]) + "% of the SMs the contention leaves its kernels" +
             (s.flag ? " (below the curve: its lowest segment carried on)" : "") + ": kernel time x" +
             note_number(s.x[1]) + ", not x" + note_number(s.x[2]);
    case Kind::launch_path:
      // The fitted cost says so: H200s ran launch-bound copies without it (results/run46-inference-grid), and
      // the profile's own grid measures it on the user's host.
      // A grid's cost counts the neighbours as copies by their SM activity (contention::copy_equivalents).
      return "MPS launch path with " + std::to_string(s.n[0]) + " clients: x" + note_number(s.x[0]) + " slower (" +
             note_number(s.x[1]) + " per other client" +
             (s.flag ? ", from its MPS co-location grid; its " + std::to_string(s.n[0] - 1) +
                           " neighbours count as " + note_number(s.x[2]) +
                           " copies of it by their SM activity)"
                     : ", fitted on H100 hosts; a profile with an MPS grid measures it here: gpupack profile --sweep runs one)");
    case Kind::launch_within_noise:
      return "MPS launch path: no cost counted: its MPS co-location grid's " + std::to_string(s.n[0]) +
             " copies kept " + note_number(s.x[0]) + " of one copy's req/s each, no less than its slowest baseline run "
             "alone kept of their median (" + note_number(s.x[1]) + "): a loss within its own run-to-run noise";
    case Kind::tail_capped:
      return "tail alone " + note_number(s.x[0]) + " x its mean request, beside neighbours " + note_number(s.x[1]) +
             " x" +
             (s.flag ? " (its mean + " + note_number(m.colocated_tail_excess) + " x its request time alone under its cap)"
                     : "");
    case Kind::core_wait:
      return std::to_string(s.n[0]) + " client processes on " + note_number(s.x[0]) + " host cores" +
             (s.n.size() > 1 && s.n[0] > s.n[1] ? " of the node (" + std::to_string(s.n[1]) + " on this slice)" : "") +
             ": +" + note_number(s.x[1]) + " ms waiting for a core " +
             (s.flag ? "(measured: its co-location grid's p99 grew " + note_number(s.x[2]) + " ms per copy past its host's " +
                           note_number(s.x[3]) + " cores, MPS K=" + note_number(s.x[4]) + " to " + note_number(s.x[5]) +
                           (s.x[0] != s.x[3] ? ", scaled to " + note_number(s.x[0]) + " cores" : "") + ")"
                     : "(fitted on other programs, not measured for this one)");
    case Kind::synthetic_slowdown:
      return std::string(to_string(sharing)) + ": no measured K-curve, synthetic slowdown x" + note_number(s.x[0]);
    case Kind::baseline:
      return baseline_note(s, w);
    case Kind::observed:
      return observed_note(s, outcome);
    case Kind::grid_rate:
      return "its own copies' rate: its MPS co-location grid's copies ran " + note_number(s.x[0]) + " req/s each with " +
             std::to_string(s.n[0]) + " copies, the most it is predicted here";
    case Kind::grid_tail:
      return "its own copies' tail: its MPS co-location grid's median copy had p99 " + note_number(s.x[0]) + " ms with " +
             std::to_string(s.n[0]) + " copies" +
             (s.flag ? " (extrapolated beyond K=" + note_number(s.x[1]) + ")" : "") + ", the least it is predicted here";
    case Kind::grid_gpu_demand:
      return "its own copies saturated the GPU: its MPS co-location grid's copies served " + note_number(s.x[2]) +
             " req/s together from K=" + std::to_string(s.n[0]) + " (no more at K=" + std::to_string(s.n[1]) +
             ", the host's cores not full), so a copy needs " + note_number(s.x[0]) + " of the GPU (SM activity alone " +
             note_number(s.x[1]) + ") and its requests are all GPU time";
    case Kind::dram_measured:
      return "others draw " + note_number(s.x[0]) + " of the DRAM bandwidth: beside its profile's neighbour (" +
             note_number(s.x[3]) + " drawn) it measured req/s /" + note_number(s.x[1]) + ", p99 x" +
             note_number(s.x[2]) + " beyond the rest of the model" +
             (s.n[0] == 1 ? " (its req/s pooled with its cells at larger draws that lost less: single windows "
                            "disagreeing by their noise)"
                          : "") +
             (s.flag ? " (at the largest draw measured; the model's own DRAM terms carry the rest)" : "");
    case Kind::saturation_wait:
      return "neighbours whose caps can hold every SM keep " + note_number(s.x[0]) +
             " of the SMs busy, with its own " + note_number(s.x[4]) + " more than every SM: its kernels wait for them, +" +
             note_number(s.x[1]) + " ms a request (its profile's cell beside a neighbour keeping " + note_number(s.x[3]) +
             " of the SMs busy measured a wait of " + note_number(s.x[2]) +
             " of its request alone per unit of SM activity, beyond the rest of the model)" +
             (s.flag ? " (extrapolated: more than it was measured beside)" : "");
    case Kind::saturation_tail:
      return "beside neighbours that keep every SM busy its requests wait alike: its profile's cell beside such a "
             "neighbour measured its p99 " + note_number(s.x[0]) + " ms past its mean request (" + note_number(s.x[1]) +
             "x it), and waiting more they spread no more, so at its predicted p99 its mean request is no shorter than "
             "either allows: " + note_number(s.x[2]) + " req/s, not " + note_number(s.x[3]);
  }
  return "";
}

}  // namespace

std::vector<std::string> explain_outcome(const ClientOutcome& outcome, const Workload& workload, Sharing sharing,
                                         const ModelParameters& m) {
  std::vector<std::string> out;
  if (outcome.source == kSyntheticSource) {
    out.push_back("no profile: predictions from the synthetic model");
    for (const ModelNote& s : outcome.notes) {
      if (s.kind == Kind::observed) out.push_back(observed_note(s, outcome));
    }
    return out;
  }
  out.reserve(outcome.notes.size());
  for (const ModelNote& s : outcome.notes) {
    std::string text = note_text(s, workload, sharing, m, outcome);
    if (!text.empty()) out.push_back(std::move(text));
  }
  return out;
}

}  // namespace gpupack
