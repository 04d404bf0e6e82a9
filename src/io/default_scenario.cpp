#include "io/default_scenario.hpp"

namespace gpupack {

// Keep in sync with examples/lab-40-models.yaml (tests/e2e/plan.sh checks that both plan the same).
std::string_view default_scenario_yaml() {
  return R"yaml(# The lab's question: pack 40 small inference models from four teams onto one A100-80GB.
# Each model: 0.5-2 GiB of memory, 1-2% of the SMs, a p99 SLO. The teams do not trust each other.
# `gpupack plan` with no file plans exactly this scenario; copy the file to start your own.
fleet:
  - model: A100-80GB
    count: 1
    node_prefix: gpu-node
    cost_per_hour: 3.67
workloads:
  - name: search-ranker-01
    tenant: search
    memory: 768MiB
    compute: 0.01
    latency_slo_ms: 30
    p99_alone_ms: 10.0
  - name: search-ranker-02
    tenant: search
    memory: 512MiB
    compute: 0.01
    latency_slo_ms: 40
    p99_alone_ms: 20.0
  - name: search-ranker-03
    tenant: search
    memory: 768MiB
    compute: 0.02
    latency_slo_ms: 15
    p99_alone_ms: 5.0
  - name: search-ranker-04
    tenant: search
    memory: 512MiB
    compute: 0.01
    latency_slo_ms: 15
    p99_alone_ms: 6.0
  - name: search-ranker-05
    tenant: search
    memory: 768MiB
    compute: 0.01
    latency_slo_ms: 20
    p99_alone_ms: 10.0
  - name: search-ranker-06
    tenant: search
    memory: 1GiB
    compute: 0.015
    latency_slo_ms: 15
    p99_alone_ms: 5.0
  - name: search-ranker-07
    tenant: search
    memory: 512MiB
    compute: 0.01
    latency_slo_ms: 50
    p99_alone_ms: 16.7
  - name: search-ranker-08
    tenant: search
    memory: 1GiB
    compute: 0.01
    latency_slo_ms: 40
    p99_alone_ms: 13.3
  - name: search-ranker-09
    tenant: search
    memory: 768MiB
    compute: 0.01
    latency_slo_ms: 20
    p99_alone_ms: 10.0
  - name: search-ranker-10
    tenant: search
    memory: 1GiB
    compute: 0.01
    latency_slo_ms: 25
    p99_alone_ms: 10.0
  - name: search-ranker-11
    tenant: search
    memory: 512MiB
    compute: 0.02
    latency_slo_ms: 15
    p99_alone_ms: 5.0
  - name: search-ranker-12
    tenant: search
    memory: 768MiB
    compute: 0.02
    latency_slo_ms: 50
    p99_alone_ms: 25.0
  - name: search-ranker-13
    tenant: search
    memory: 512MiB
    compute: 0.02
    latency_slo_ms: 40
    p99_alone_ms: 13.3
  - name: ads-ctr-01
    tenant: ads
    memory: 768MiB
    compute: 0.015
    latency_slo_ms: 15
    p99_alone_ms: 5.0
    isolation: memory
  - name: ads-ctr-02
    tenant: ads
    memory: 512MiB
    compute: 0.02
    latency_slo_ms: 15
    p99_alone_ms: 5.0
    isolation: memory
  - name: ads-ctr-03
    tenant: ads
    memory: 768MiB
    compute: 0.015
    latency_slo_ms: 50
    p99_alone_ms: 16.7
    isolation: memory
  - name: ads-ctr-04
    tenant: ads
    memory: 1280MiB
    compute: 0.015
    latency_slo_ms: 30
    p99_alone_ms: 10.0
  - name: ads-ctr-05
    tenant: ads
    memory: 1280MiB
    compute: 0.015
    latency_slo_ms: 25
    p99_alone_ms: 12.5
  - name: ads-ctr-06
    tenant: ads
    memory: 768MiB
    compute: 0.02
    latency_slo_ms: 20
    p99_alone_ms: 10.0
  - name: ads-ctr-07
    tenant: ads
    memory: 1GiB
    compute: 0.02
    latency_slo_ms: 30
    p99_alone_ms: 12.0
  - name: ads-ctr-08
    tenant: ads
    memory: 1280MiB
    compute: 0.015
    latency_slo_ms: 40
    p99_alone_ms: 20.0
  - name: ads-ctr-09
    tenant: ads
    memory: 512MiB
    compute: 0.02
    latency_slo_ms: 30
    p99_alone_ms: 15.0
  - name: ads-ctr-10
    tenant: ads
    memory: 1GiB
    compute: 0.01
    latency_slo_ms: 30
    p99_alone_ms: 12.0
  - name: ads-ctr-11
    tenant: ads
    memory: 512MiB
    compute: 0.02
    latency_slo_ms: 15
    p99_alone_ms: 5.0
  - name: ads-ctr-12
    tenant: ads
    memory: 1GiB
    compute: 0.015
    latency_slo_ms: 50
    p99_alone_ms: 20.0
  - name: vision-detect-01
    tenant: vision
    memory: 1536MiB
    compute: 0.015
    latency_slo_ms: 40
    p99_alone_ms: 16.0
  - name: vision-detect-02
    tenant: vision
    memory: 768MiB
    compute: 0.01
    latency_slo_ms: 25
    p99_alone_ms: 10.0
  - name: vision-detect-03
    tenant: vision
    memory: 1536MiB
    compute: 0.02
    latency_slo_ms: 15
    p99_alone_ms: 7.5
  - name: vision-detect-04
    tenant: vision
    memory: 1536MiB
    compute: 0.02
    latency_slo_ms: 25
    p99_alone_ms: 8.3
  - name: vision-detect-05
    tenant: vision
    memory: 1536MiB
    compute: 0.02
    latency_slo_ms: 30
    p99_alone_ms: 12.0
  - name: vision-detect-06
    tenant: vision
    memory: 1536MiB
    compute: 0.015
    latency_slo_ms: 50
    p99_alone_ms: 20.0
  - name: vision-detect-07
    tenant: vision
    memory: 768MiB
    compute: 0.015
    latency_slo_ms: 25
    p99_alone_ms: 12.5
  - name: vision-detect-08
    tenant: vision
    memory: 1536MiB
    compute: 0.01
    latency_slo_ms: 30
    p99_alone_ms: 15.0
  - name: vision-detect-09
    tenant: vision
    memory: 768MiB
    compute: 0.015
    latency_slo_ms: 20
    p99_alone_ms: 6.7
  - name: vision-detect-10
    tenant: vision
    memory: 768MiB
    compute: 0.015
    latency_slo_ms: 30
    p99_alone_ms: 12.0
  - name: speech-asr-01
    tenant: speech
    memory: 1536MiB
    compute: 0.01
    latency_slo_ms: 30
    p99_alone_ms: 12.0
  - name: speech-asr-02
    tenant: speech
    memory: 2GiB
    compute: 0.01
    latency_slo_ms: 30
    p99_alone_ms: 10.0
  - name: speech-asr-03
    tenant: speech
    memory: 2GiB
    compute: 0.02
    latency_slo_ms: 30
    p99_alone_ms: 12.0
  - name: speech-asr-04
    tenant: speech
    memory: 2GiB
    compute: 0.01
    latency_slo_ms: 20
    p99_alone_ms: 10.0
  - name: speech-asr-05
    tenant: speech
    memory: 1536MiB
    compute: 0.01
    latency_slo_ms: 20
    p99_alone_ms: 6.7
)yaml";
}

}  // namespace gpupack
