#!/usr/bin/env bash
# End-to-end: the node commands on a fake machine (GPUPACK_GPU_BACKEND=fake:...) with the fake MPS
# control program: gpus, mps up/status/down, run (admission, limits, exit code, signals), profile, and
# the agent (/metrics through promtool, /healthz, SIGHUP with a bad and a good config, SIGTERM quits MPS).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../agent_port.sh"
# shellcheck source=tests/concurrent_runs.sh
source "$(dirname "${BASH_SOURCE[0]}")/../concurrent_runs.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FAKE_MPS="$(dirname "$GPUPACK")/tests/fakes/fake-mps-control"
[ -x "$FAKE_MPS" ] || { echo "fake-mps-control not built at $FAKE_MPS" >&2; exit 1; }
export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/two-gpus.json"
GPU0=GPU-11111111-2222-3333-4444-555555555555
PIPE0="$WORK/mps/$GPU0/pipe"

write_config() {  # write_config <clients of GPU 0> [extra limits]
  cat >"$WORK/node.yaml" <<YAML
mps_root: $WORK/mps
control_binary: $FAKE_MPS
metrics_address: 127.0.0.1:0
check_interval_seconds: 0.2
gpus:
  - {gpu: "0", mode: mps, clients: $1, limits: {sm_percent: 50, memory: 8GiB}}
  - gpu: "1"
    mig:
      - {instance: "2g.20gb@4", mode: time-slicing, clients: 2, tenant: lab}
YAML
}
write_config 4

run gpus --format json
expect_rc 0
expect_json '.backend == "fake" and (.devices | length == 2) and .devices[0].model == "H100-SXM5-80GB"'
expect_json '.devices[1].mig_instances[0].profile == "3g.40gb" and .devices[0].processes[0].mps_client'

# mps: up, status, a second up refused while it runs, down.
run mps status --config "$WORK/node.yaml"
expect_rc 0
expect_out "$GPU0 +down"
run mps up --config "$WORK/node.yaml"
expect_rc 0
expect_out "mps up: $GPU0 daemon pid [0-9]+"
[ "$(stat -c %a "$PIPE0")" = 700 ] || fail "pipe directory is not 0700"
run mps status --config "$WORK/node.yaml" --format json
expect_rc 0
expect_json '.mps[0].daemon_up and (.mps[0].servers | length == 1) and .mps[0].servers[0].state == "ACTIVE"'
run mps up --config "$WORK/node.yaml"
expect_rc 0
expect_out "mps up: $GPU0 already running \(pid [0-9]+\)"

# shellcheck disable=SC2016  # expanded by the child's shell, on purpose
# run: admitted on GPU 0 with the MPS environment; the child's exit code comes back.
run run --config "$WORK/node.yaml" --gpu 0 --sm 25 -- sh -c 'echo "$CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_ACTIVE_THREAD_PERCENTAGE $CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"; exit 7'
expect_rc 7
expect_out "^$PIPE0 25 0=8192M$"
run run --config "$WORK/node.yaml" --gpu 0 --sm 75 -- true
expect_rc 3
expect_err "exceeds the configured limit 50"
# Issue 38 item 3: --mem above the configured per-client limits.memory is refused as --sm is.
run run --config "$WORK/node.yaml" --gpu 0 --mem 70GiB -- true
expect_rc 3
expect_err "--mem 70GiB exceeds the configured limit 8GiB"
run run --config "$WORK/node.yaml" --gpu 2g.20gb@4 -- true
expect_rc 3
expect_err "not a GPU or MIG instance"
# shellcheck disable=SC2016
run run --config "$WORK/node.yaml" --gpu MIG-00000000-0000-0000-0000-000000000002 --tenant lab -- sh -c 'echo "$CUDA_VISIBLE_DEVICES"'
expect_rc 0
expect_out "^MIG-00000000-0000-0000-0000-000000000002$"
run run --config "$WORK/node.yaml" --gpu MIG-00000000-0000-0000-0000-000000000002 -- true
expect_rc 3
expect_err "reserved for tenant 'lab'"
# Admission is one book of slots (a flock per slot): 8 concurrent runs against clients: 6 admit exactly 6,
# whatever NVML lists. A SIGKILLed `gpupack run` wrapper keeps its slot while its program runs on (issue 38:
# waves of killed wrappers put more than `clients` programs on the GPU); the slot is free once it ends.
write_config 6
# shellcheck disable=SC2016  # expanded by the client's sh
start_runs 8 --config "$WORK/node.yaml" --gpu 0 -- sh -c 'touch "$1/started.$2"; while [ ! -e "$1/go" ]; do sleep 0.05; done' _
settle_runs 8
LAST="8 concurrent runs, clients: 6"
[ "$(count_started)" -eq 6 ] || fail "$(count_started) runs started, expected 6"
[ "$(count_refused)" -eq 2 ] || fail "expected 2 refusals: $(cat "$WORK"/run.*.err)"
grep -q "full (6 of 6 clients)" "$WORK"/run.*.err || fail "no 'full (6 of 6 clients)' in the refusals"
run run --config "$WORK/node.yaml" --gpu 0 -- true
expect_rc 3
expect_err "full \(6 of 6 clients\)"
kill_one_admitted
run run --config "$WORK/node.yaml" --gpu 0 -- true
expect_rc 3  # the killed wrapper's program still runs and holds the slot it inherited
expect_err "full \(6 of 6 clients\)"
release_runs  # every program ends, the killed wrapper's orphan included
run_until_admitted --config "$WORK/node.yaml" --gpu 0 -- true
expect_rc 0
[ "$(stat -c %a "$WORK/mps/$GPU0/clients/slot-0")" = 644 ] || fail "slot files are not 0644"
write_config 4

# run forwards SIGTERM to the child and returns its status.
"$GPUPACK" run --config "$WORK/node.yaml" --gpu 0 -- sh -c 'trap "exit 42" TERM; while :; do sleep 0.1; done' &
RUNNER=$!
sleep 1
kill -TERM "$RUNNER"
set +e
wait "$RUNNER"
RC=$?
set -e
LAST="run with SIGTERM"
expect_rc 42

run mps down --config "$WORK/node.yaml"
expect_rc 0
expect_out "mps down: $GPU0"
[ ! -e "$PIPE0/nvidia-cuda-mps-control.pid" ] || fail "pid file left after down"

# profile on a fake machine whose memory grows: 4 GiB above the baseline at the peak, +15%.
GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/growing-memory.json" run profile --interval 0.05 --duration 0.3 --name ranker -- sleep 5
expect_rc 0
expect_out "^  - name: ranker$"
expect_out "^    memory: 4.6GiB$"
expect_out "^    compute: 0\.[0-9]+  # NVML utilisation: an upper bound"
# A program that ends before its window has no profile: exit 1, one line saying why, nothing on stdout.
GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/growing-memory.json" run profile --interval 0.05 -- sh -c 'exit 3'
expect_rc 1
expect_err "exited with 3 .* before the measurement window began"
[ ! -s "$WORK/out" ] || fail "profile printed an entry for a program that ended before its window"

# Bad node configs: exit 2 with the field.
# Issue 38 item 13: clients x limits.memory above the GPU, without a device_plugin section.
printf 'mps_root: %s/mps\ngpus: [{gpu: "0", mode: mps, clients: 12, limits: {memory: 8GiB}}]\n' "$WORK" >"$WORK/bad.yaml"
run agent --config "$WORK/bad.yaml" --port 0
expect_usage_error "GPU '0': clients 12 x limits.memory 8GiB = 96GiB exceeds the GPU's memory"
# Issue 38 item 1: an mps_root other users can write (the agent runs as root there).
mkdir -m 0777 "$WORK/open-root"
chmod 0777 "$WORK/open-root"
printf 'mps_root: %s/open-root\ngpus: [{gpu: "0", mode: mps}]\n' "$WORK" >"$WORK/bad.yaml"
run agent --config "$WORK/bad.yaml" --port 0
expect_usage_error "mps_root: .*open-root has mode 0777: writable by other users"
run mps up --config "$WORK/bad.yaml"
expect_usage_error "mps_root: .*open-root has mode 0777: writable by other users"
[ ! -e "$WORK/open-root/$GPU0" ] || fail "mps up made directories under an mps_root others can write"
printf 'gpus: [{gpu: GPU-nope, mode: mps}]\n' >"$WORK/bad.yaml"
run agent --config "$WORK/bad.yaml"
expect_usage_error "GPU 'GPU-nope' is not on this machine"
printf 'gpus: [{gpu: "0", mode: mps, limits: {sm_percent: 150}}]\n' >"$WORK/bad.yaml"
run mps up --config "$WORK/bad.yaml"
expect_usage_error "gpus\[0\].limits.sm_percent: 150 is out of range 1..100"
# A sequence as an mps_slices key (found by fuzz_node_config; it used to end in "yaml-cpp: bad conversion", exit 3).
printf 'gpus: [{gpu: "0", mode: mps}]\ndevice_plugin:\n  mps_slices:\n    ? - {sm_percent: 25}\n    : [{sm_percent: 25}]\n' >"$WORK/bad.yaml"
run agent --config "$WORK/bad.yaml"
expect_usage_error "device_plugin.mps_slices: '- \{sm_percent: 25\}' is not a GPU or MIG instance"

# The agent: metrics pass promtool, SIGHUP with a bad file keeps the old config, SIGTERM quits MPS.
"$GPUPACK" agent --config "$WORK/node.yaml" --port 0 2>"$WORK/agent.log" &
AGENT=$!
PORT=$(agent_port "$WORK/agent.log")
LAST="agent"
[ -n "$PORT" ] || fail "agent did not start: $(cat "$WORK/agent.log")"
curl -sf "http://127.0.0.1:$PORT/metrics" >"$WORK/metrics.txt" || fail "GET /metrics failed"
grep -q "^gpupack_mps_daemon_up{target=\"$GPU0\"" "$WORK/metrics.txt" || fail "no gpupack_mps_daemon_up"
if command -v promtool >/dev/null; then
  promtool check metrics <"$WORK/metrics.txt" >"$WORK/promtool.txt" 2>&1 || fail "promtool: $(cat "$WORK/promtool.txt")"
fi
curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null || fail "healthz not 200"
printf 'gpus: [' >"$WORK/node.yaml"
kill -HUP "$AGENT"
sleep 1
grep -q "reload refused, the old config stays in force" "$WORK/agent.log" || fail "bad reload not logged"
kill -0 "$AGENT" || fail "agent died on a bad reload"
write_config 6
kill -HUP "$AGENT"
for _ in $(seq 1 50); do
  curl -sf "http://127.0.0.1:$PORT/metrics" | grep -q "gpupack_sharing_clients_limit{uuid=\"$GPU0\",target=\"$GPU0\"} 6" && break
  sleep 0.1
done
curl -sf "http://127.0.0.1:$PORT/metrics" | grep -q "gpupack_agent_config_reloads_total 1" || fail "good reload not counted"
kill -TERM "$AGENT"
set +e
wait "$AGENT"
RC=$?
set -e
expect_rc 0
[ ! -e "$PIPE0/nvidia-cuda-mps-control.pid" ] || fail "MPS daemon left running after SIGTERM"
grep -q "MPS daemon for $GPU0 quit" "$WORK/agent.log" || fail "no quit logged"

finish
