#pragma once
// A plan as `gpupack plan --format json` writes it (fields render and verify read): one H100 under MPS with
// three replicas of `fast` (40% threads) and one of `batch` (30%), predicted p99 inflation 1.74.
#include <nlohmann/json.hpp>

namespace gpupack::testing {

inline nlohmann::json mps_test_plan() {
  return nlohmann::json::parse(R"({"schema_version":1,"gpus":[{"id":"gpu0","model":"H100-SXM5-80GB","node":"node-0","mode":"mps","mig":[],
"slices":[{"id":"s0","profile":null,"start":null,"sharing":"mps","tenant":"default","memory_bytes":85094039552,"predicted_throughput":0.97,
"clients":[{"process":0,"replicas":[{"workload":"batch","replica":0}],"memory_limit_bytes":2684354560,"mps_active_thread_percentage":30,"predicted_p99_inflation":1.74},
{"process":1,"replicas":[{"workload":"fast","replica":0}],"memory_limit_bytes":1610612736,"mps_active_thread_percentage":40,"predicted_p99_inflation":1.74},
{"process":2,"replicas":[{"workload":"fast","replica":1}],"memory_limit_bytes":1610612736,"mps_active_thread_percentage":40,"predicted_p99_inflation":1.74},
{"process":3,"replicas":[{"workload":"fast","replica":2}],"memory_limit_bytes":1610612736,"mps_active_thread_percentage":40,"predicted_p99_inflation":1.74}]}]}],
"placements":[
{"workload":"batch","replica":0,"tenant":"default","gpu":"gpu0","node":"node-0","slice":"s0","memory_limit_bytes":2684354560,"mps_active_thread_percentage":30,"predicted_p99_inflation":1.74},
{"workload":"fast","replica":0,"tenant":"default","gpu":"gpu0","node":"node-0","slice":"s0","memory_limit_bytes":1610612736,"mps_active_thread_percentage":40,"predicted_p99_inflation":1.74},
{"workload":"fast","replica":1,"tenant":"default","gpu":"gpu0","node":"node-0","slice":"s0","memory_limit_bytes":1610612736,"mps_active_thread_percentage":40,"predicted_p99_inflation":1.74},
{"workload":"fast","replica":2,"tenant":"default","gpu":"gpu0","node":"node-0","slice":"s0","memory_limit_bytes":1610612736,"mps_active_thread_percentage":40,"predicted_p99_inflation":1.74}]})");
}

}  // namespace gpupack::testing
