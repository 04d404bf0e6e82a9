#include "bench/bench_json.hpp"

#include <string>

#include "bench/metrics.hpp"
#include "bench/verdicts.hpp"
#include "measure/sm_share_sweep.hpp"

namespace gpupack::bench {

using Json = nlohmann::ordered_json;

namespace {

template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// {"25": x, "50": y} with the keys as strings, the calibration contract's shape.
Json keyed(const std::map<int, double>& values) {
  Json out = Json::object();
  for (const auto& [key, value] : values) out[std::to_string(key)] = value;
  return out;
}

Json settings_json(const BenchResults& r) {
  Json parts = Json::array();
  for (Part p : r.options.parts) parts.push_back(to_string(p));
  const BenchPlan& p = r.plan;
  return Json{{"quick", r.options.quick},
              {"parts", parts},
              {"client_cmd", r.options.client_cmd ? Json(*r.options.client_cmd) : Json(nullptr)},
              {"client_ks", r.options.client_ks},
              {"neighbour_cmd", r.options.neighbour_cmd ? Json(*r.options.neighbour_cmd) : Json(nullptr)},
              {"window_s", r.options.window_s},
              {"settle_s", r.options.settle_s},
              {"ready_timeout_s", r.options.ready_timeout_s},
              {"sweep", r.options.sweep_pcts},
              {"ks", p.ks},
              {"client_blocks", p.client_blocks},
              {"client_threads", p.client_threads},
              {"client_work_ms", p.client_work_ms},
              {"client_kernel_ms", p.client_kernel_ms},
              {"latency_kernel_us", p.latency_kernel_us},
              {"latency_samples", p.latency_samples},
              {"caps", p.caps},
              {"neighbour_alone_s", p.neighbour_alone_s},
              {"limit_work_ms", p.limit_work_ms},
              {"stream_reps", p.stream_reps},
              {"stream_kernel_ms", p.stream_kernel_ms},
              {"mem_limit_mib", p.mem_limit_mib},
              {"mem_within_mib", p.mem_within_mib},
              {"mem_beyond_mib", p.mem_beyond_mib},
              {"gemm_n", p.gemm_n}};
}

Json device_json(const DeviceInfo& d) {
  return Json{{"name", d.name},
              {"uuid", d.uuid},
              {"gpu_uuid", d.gpu_uuid},
              {"compute_capability", d.compute_capability},
              {"driver_version", d.driver_version},
              {"cuda_driver_version", d.cuda_driver_version},
              {"cuda_runtime_version", d.cuda_runtime_version},
              {"sm_count", d.sm_count},
              {"memory_bytes", d.memory_bytes},
              {"compute_mode", d.compute_mode},
              {"mig_mode", d.mig_mode},
              {"mig_instances", d.mig_instances},
              {"kernel_speeds",
               {{"client_iters_per_ms", d.client_iters_per_ms},
                {"latency_iters_per_ms", d.latency_iters_per_ms},
                {"saturating_iters_per_ms", d.saturating_iters_per_ms},
                {"gemm_n", d.gemm_n},
                {"gemm_ms", d.gemm_ms}}}};
}

Json streams_json(const BenchResults& r) {
  if (!r.streams) return nullptr;
  Json kernels = Json::array();
  for (const auto& s : r.streams->kernels) {
    kernels.push_back(Json{{"k", s.k},
                           {"blocks_per_kernel", s.blocks_per_kernel},
                           {"serial_ms", s.serial_ms},
                           {"concurrent_ms", s.concurrent_ms},
                           {"speedup", optional_json(stream_speedup(r, s.k))}});
  }
  const CopyOverlap& c = r.streams->copy;
  return Json{{"kernels", kernels},
              {"copy_overlap",
               {{"chunks", c.chunks},
                {"chunk_bytes", c.chunk_bytes},
                {"streams", c.streams},
                {"rounds_per_element", c.rounds_per_element},
                {"serial_ms", c.serial_ms},
                {"overlapped_ms", c.overlapped_ms},
                {"speedup", optional_json(copy_overlap_speedup(r))}}}};
}

Json clients_json(const BenchResults& r) {
  Json out = Json::array();
  for (const auto& c : r.clients) {
    out.push_back(Json{{"mode", c.mode},
                       {"target", c.target},
                       {"k", c.k},
                       {"seconds", c.seconds},
                       {"flops_per_client", c.flops_per_client},
                       {"slowdown", optional_json(slowdown(r, c.mode, c.k, c.target))},
                       {"aggregate_throughput", optional_json(aggregate_throughput(r, c.mode, c.k, c.target))}});
  }
  return out;
}

Json isolation_json(const BenchResults& r) {
  Json out = Json::array();
  for (const auto& run : r.isolation) {
    const LatencySummary s = summarize(run.latency_us);
    out.push_back(Json{{"setting", run.setting},
                       {"neighbour_cap", optional_json(run.neighbour_cap)},
                       {"p50_us", s.p50},
                       {"p99_us", s.p99},
                       {"p999_us", s.p999},
                       {"max_us", s.max},
                       {"p99_inflation", optional_json(p99_inflation(r, run.setting))},
                       {"neighbour_kernels_per_s", optional_json(run.neighbour_kernels_per_s)},
                       {"neighbour_fraction", optional_json(neighbour_fraction(r, run.setting))},
                       {"latency_us", run.latency_us}});
  }
  return out;
}

Json limits_json(const BenchResults& r) {
  Json threads = Json::array();
  for (const auto& c : r.thread_limits) {
    threads.push_back(Json{{"percent", c.percent},
                           {"sms_seen", c.sms_seen},
                           {"sm_total", c.sm_total},
                           {"gflops", c.gflops},
                           {"baseline_gflops", c.baseline_gflops},
                           {"expected_fraction", expected_fraction(c)},
                           {"measured_fraction", measured_fraction(c)}});
  }
  Json memory = nullptr;
  if (const auto& m = r.memory_limit) {
    memory = Json{{"limit_mib", m->limit_mib},         {"within_mib", m->within_mib},
                  {"within_ok", m->within_ok},         {"within_error", m->within_error},
                  {"beyond_mib", m->beyond_mib},       {"beyond_failed", m->beyond_failed},
                  {"beyond_error", m->beyond_error}};
  }
  return Json{{"active_thread_percentage", threads}, {"pinned_device_memory", memory}};
}

// The same point fields as the workload profile's sm_share_curve, and its compute demand rule.
Json sm_share_json(const BenchResults& r) {
  if (r.sm_share_curve.empty()) return nullptr;
  Json points = Json::array();
  for (const auto& p : r.sm_share_curve) {
    points.push_back(Json{{"pct", p.pct}, {"req_per_s", p.req_per_s}, {"p50_ms", optional_json(p.p50_ms)},
                          {"p99_ms", optional_json(p.p99_ms)}});
  }
  const measure::ComputeDemand d = measure::demand_from_sweep(r.sm_share_curve, kSweepTolerance);
  return Json{{"points", points}, {"compute_demand", {{"share", d.share}, {"method", d.method}, {"tolerance", optional_json(d.tolerance)}}}};
}

Json calibration_json(const BenchResults& r) {
  const Calibration c = calibration(r);
  Json out = Json::object();
  if (c.timeslicing_p99_inflation) out["timeslicing_p99_inflation"] = *c.timeslicing_p99_inflation;
  if (c.mps_p99_inflation) out["mps_p99_inflation"] = *c.mps_p99_inflation;
  if (!c.mps_capped_p99_inflation.empty()) out["mps_capped_p99_inflation"] = keyed(c.mps_capped_p99_inflation);
  if (!c.mps_capped_neighbour_throughput.empty()) {
    out["mps_capped_neighbour_throughput"] = keyed(c.mps_capped_neighbour_throughput);
  }
  if (!c.timeslicing_slowdown.empty()) out["timeslicing_slowdown"] = keyed(c.timeslicing_slowdown);
  if (!c.mps_slowdown.empty()) out["mps_slowdown"] = keyed(c.mps_slowdown);
  return out;
}

}  // namespace

Json to_json(const BenchResults& r) {
  Json verdict_list = Json::array();
  for (const auto& v : verdicts(r)) {
    verdict_list.push_back(Json{{"id", v.id}, {"outcome", v.outcome == Outcome::fail ? "fail" : to_string(v.outcome)},
                                {"finding", v.finding}, {"expected", v.expected}, {"measured", v.measured}});
  }
  Json skipped = Json::array();
  for (const auto& s : r.skipped) skipped.push_back(Json{{"part", s.part}, {"reason", s.reason}});
  return Json{{"schema_version", kSchemaVersion},
              {"tool", "gpupack bench"},
              {"started_at", r.started_at},
              {"elapsed_s", r.elapsed_s},
              {"command_line", r.command_line},
              {"settings", settings_json(r)},
              {"device", device_json(r.device)},
              {"calibration", calibration_json(r)},
              {"verdicts", verdict_list},
              {"skipped", skipped},
              {"streams", streams_json(r)},
              {"clients", clients_json(r)},
              {"neighbour_alone_kernels_per_s", optional_json(r.neighbour_alone_kernels_per_s)},
              {"isolation", isolation_json(r)},
              {"limits", limits_json(r)},
              {"colocation", r.colocation ? measure::to_json(*r.colocation) : Json(nullptr)},
              {"sm_share", sm_share_json(r)}};
}

}  // namespace gpupack::bench
