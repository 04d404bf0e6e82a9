#!/usr/bin/env bash
# GPU test (label gpu), issue 36 item 3: the standard neighbour. `gpupack neighbour` runs STREAM's triad and
# writes the client report; `gpupack profile --sweep` runs a real client beside it by itself (no
# --neighbour-cmd): the neighbour alone, then the client beside it capped at 25% and 50% of the threads, with
# the GPU's DRAM share of each cell (GPM), which is what the plan reads the client's DRAM sensitivity from.
# `--kind compute` (FMA chains on every SM) is checked too, alone and given to --compute-neighbour-cmd.
# Needs python3 with torch and torchvision (examples/clients) and a GPU with GPM (H100, H200). About 2
# minutes. Outputs go to $OUT/standard-neighbour when OUT is set.
RESULTS_ROOT=${OUT:-}
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
R=${RESULTS_ROOT:+$RESULTS_ROOT/standard-neighbour}
R=${R:-$WORK/standard-neighbour}
mkdir -p "$R"
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

# 1. By hand: its report has one ready line, then a request line per triad request. A request moves 6 GiB;
# every GPU with HBM that gpupack knows (A100 and newer) streams at least 1.5 TB/s, so fewer than 1000 GB/s
# means the kernel is not the bandwidth-bound triad it is meant to be.
GPUPACK_REPORT="$R/neighbour.jsonl" run neighbour --duration 3
expect_rc 0
expect_out "^[0-9]+ requests in [0-9.]+ s: [0-9.]+ req/s, [0-9]+ GB/s of DRAM traffic$"
echo "$OUT" >"$R/neighbour.txt"
gbs=$(sed -nE 's/.* ([0-9]+) GB\/s.*/\1/p' <<<"$OUT")
[ "${gbs:-0}" -ge 1000 ] || fail "the triad streamed ${gbs:-?} GB/s"
[ "$(grep -c '"event":"ready"' "$R/neighbour.jsonl")" -eq 1 ] || fail "not one ready line"
[ "$(grep -c '"event":"request"' "$R/neighbour.jsonl")" -ge 100 ] || fail "fewer than 100 requests in 3 s"

# The compute-bound kind: FMA chains on every SM. Every GPU gpupack knows from the A100 on does at least
# 19.5 TFLOP/s of FP32 FMA; below 15 the kernel is not the SM-bound work it is meant to be.
GPUPACK_REPORT="$R/compute.jsonl" run neighbour --kind compute --duration 3
expect_rc 0
expect_out "^[0-9]+ requests in [0-9.]+ s: [0-9.]+ req/s, [0-9.]+ TFLOP/s of FMA$"
echo "$OUT" >"$R/neighbour-compute.txt"
tflops=$(sed -nE 's/.* ([0-9]+)\.[0-9] TFLOP\/s.*/\1/p' <<<"$OUT")
[ "${tflops:-0}" -ge 15 ] || fail "the FMA chains ran ${tflops:-?} TFLOP/s"
[ "$(grep -c '"event":"request"' "$R/compute.jsonl")" -ge 50 ] || fail "fewer than 50 compute requests in 3 s"

# The launch-bound reporter: 32 short kernels a request. On an H200 a kernel took about 5 us alone (run76);
# above 50 us it is not the launch-bound probe it is meant to be.
GPUPACK_REPORT="$R/reporter.jsonl" run neighbour --kind reporter --duration 2
expect_rc 0
expect_out "^[0-9]+ requests in [0-9.]+ s: [0-9.]+ req/s, [0-9.]+ us a kernel$"
echo "$OUT" >"$R/neighbour-reporter.txt"
us=$(sed -nE 's/.* ([0-9.]+) us a kernel$/\1/p' <<<"$OUT")
awk -v u="${us:-1e9}" 'BEGIN { exit !(u > 0 && u < 50) }' || fail "a reporter kernel took ${us:-?} us"

# 2. profile --sweep runs a client beside it by itself; --compute-neighbour-cmd beside the compute-bound kind too.
run profile --name mobilenet-v3-b8 --duration 4 --baseline-runs 1 --sweep 100 --no-grid -o "$R/profile.json" \
  --compute-neighbour-cmd "exec $GPUPACK neighbour --kind compute" \
  -- python3 "$CLIENTS/mobilenet_v3_b8.py" --duration 3600
echo "$ERR" >"$R/profile.txt"
expect_rc 0
expect_err "co-location, mps K=1 \+ neighbour at 50%"
expect_err "co-location, mps K=1 \+ neighbour at 100%"
p="$R/profile.json"
jq -e '[.colocation.cells[] | [.k, .with_neighbour, .neighbour_cap]] == [[0, true, null], [1, true, 25], [1, true, 50], [1, true, 100]]' "$p" >/dev/null ||
  fail "not the neighbour alone and the client beside it at 25%, 50% and 100%: $(jq -c '[.colocation.cells[] | [.k, .neighbour_cap]]' "$p")"
jq -e '([.colocation.cells[] | .error] | unique) == [""] and (.colocation.neighbour_command | test(" neighbour$"))' "$p" >/dev/null ||
  fail "a cell failed or the neighbour is not gpupack's: $(jq -c '[.colocation.neighbour_command, [.colocation.cells[] | .error]]' "$p")"
jq -e '.colocation.cells[0].neighbour.req_per_s > 0 and ([.colocation.cells[1:][] | .copies[0].req_per_s > 0] | all)' "$p" >/dev/null ||
  fail "no req/s from the neighbour or the client"
jq -e '[.colocation.cells[] | .gpu_dram_bw != null and .gpu_dram_bw > 0.3] | all' "$p" >/dev/null ||
  fail "a cell without the GPU's DRAM share (GPM) above 0.3: $(jq -c '[.colocation.cells[] | .gpu_dram_bw]' "$p")"
jq -e '[.compute_neighbour.cells[] | [.k, .with_neighbour, .neighbour_cap, .error]] == [[0, true, null, ""], [1, true, null, ""]]
       and (.compute_neighbour.neighbour_command | test(" neighbour --kind compute$"))' "$p" >/dev/null ||
  fail "not the compute neighbour alone and the client beside it: $(jq -c '.compute_neighbour' "$p" | head -c 600)"
# It holds the SMs and draws next to no DRAM (what separates the wait for SMs from the triad's DRAM).
jq -e '.compute_neighbour.cells[0].gpu_sm_active > 0.9 and .compute_neighbour.cells[0].gpu_dram_bw < 0.1' "$p" >/dev/null ||
  fail "the compute neighbour alone is not SM-bound: $(jq -c '[.compute_neighbour.cells[0] | .gpu_sm_active, .gpu_dram_bw]' "$p")"
# --sweep runs the reporter alone and beside the client by itself; the summary gives its growth.
jq -e '[.launch_pressure.cells[] | [.k, .with_neighbour, .neighbour_cap, .error]] == [[0, true, null, ""], [1, true, null, ""]]
       and (.launch_pressure.neighbour_command | test(" neighbour --kind reporter$"))
       and ([.launch_pressure.cells[] | .neighbour.req_per_s > 1000] | all)' "$p" >/dev/null ||
  fail "not the reporter alone and beside the client: $(jq -c '.launch_pressure' "$p" | head -c 600)"
expect_err "^  launch pressure: a launch-bound probe's request \(32 short kernels\) took [0-9.]+ ms alone and [0-9.]+ ms beside it: [-+][0-9.]+ ms$"
jq -r '.colocation.cells[] | "k=\(.k) cap=\(.neighbour_cap) client req/s=\(.copies[0].req_per_s // "-") neighbour req/s=\(.neighbour.req_per_s) dram=\(.gpu_dram_bw)"' "$p" | tee "$R/table.txt"
finish
