#pragma once
// Small verify runs for the comparison's tests: one MPS slice with two replicas of `fast` (predicted
// throughput 0.5 of the slice), their measured figures per run, and `fast` alone.
#include <optional>

#include "verify/verify_result.hpp"

namespace gpupack::testing {

inline verify::VerifySetup one_slice(double inflation, std::optional<double> slo) {
  verify::SliceSetup s;
  s.gpu_id = "gpu0";
  s.slice_id = "s0";
  s.sharing = "mps";
  s.predicted_throughput = 0.5;
  for (int i = 0; i < 2; ++i) {
    verify::ReplicaSetup r;
    r.workload = "fast";
    r.replica = i;
    r.predicted_p99_inflation = inflation;
    r.slo_ms = slo;
    s.replicas.push_back(r);
  }
  return {"node-0", {s}, {}, {}, {}, {}};
}

inline verify::ReplicaRun measured(double p99, double rps) {
  verify::ReplicaRun r;
  r.reported = true;
  measure::ReportFigures f;
  f.requests = 100;
  f.p99_ms = p99;
  f.req_per_s = rps;
  r.figures = f;
  return r;
}

inline verify::SessionRun run_of(double p99_a, double p99_b, double rps) { return {{{measured(p99_a, rps), measured(p99_b, rps)}}, 10, {}}; }

inline verify::AloneFigures alone(double p99, double rps) {
  verify::AloneFigures a;
  a.workload = "fast";
  a.source = "solo run";
  a.p99_ms.runs = {p99, p99};
  a.req_per_s.runs = {rps};
  return a;
}

}  // namespace gpupack::testing
