#!/usr/bin/env bash
# End-to-end: the agent's log lines (fake GPU machine, fake MPS control program). By default each line is
# "<RFC 3339 UTC time with ms> <level> <message>"; with --log-format json each is one JSON object with
# ts, level and msg; an unknown format is a usage error (exit 2, one line).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../agent_port.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FAKE_MPS="$(dirname "$GPUPACK")/tests/fakes/fake-mps-control"
[ -x "$FAKE_MPS" ] || { echo "fake-mps-control not built at $FAKE_MPS" >&2; exit 1; }
export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/two-gpus.json"
cat >"$WORK/node.yaml" <<YAML
mps_root: $WORK/mps
control_binary: $FAKE_MPS
metrics_address: 127.0.0.1:0
check_interval_seconds: 0.2
gpus:
  - {gpu: "0", mode: mps, clients: 2}
YAML

# run_agent FORMAT-ARGS...: starts the agent, waits until it serves, stops it with SIGTERM; its stderr
# is left in $WORK/agent.log. The log is emptied here first: the background shell truncates it only when it
# runs, and agent_port must not read the previous agent's serving line and stop the new one before it serves.
run_agent() {
  : >"$WORK/agent.log"
  "$GPUPACK" agent --config "$WORK/node.yaml" --port 0 "$@" 2>"$WORK/agent.log" &
  local pid=$!
  [ -n "$(agent_port "$WORK/agent.log")" ] || fail "agent did not serve: $(cat "$WORK/agent.log")"
  kill -TERM "$pid"
  wait "$pid" || fail "agent exit code $?"
}

LAST="agent (text log)"
run_agent
[ "$(wc -l <"$WORK/agent.log")" -ge 2 ] || fail "expected at least 2 lines: $(cat "$WORK/agent.log")"
TS='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z'
grep -Evq "^$TS (debug|info|warning|error) [^ ]" "$WORK/agent.log" &&
  fail "a line without time and level: $(grep -Ev "^$TS (debug|info|warning|error) " "$WORK/agent.log" | head -3)"
grep -Eq "^$TS info MPS daemon up for GPU-11111111-2222-3333-4444-555555555555" "$WORK/agent.log" ||
  fail "no MPS line: $(cat "$WORK/agent.log")"
grep -q "gpupack agent: " "$WORK/agent.log" && fail "the plain prefix is still in the lines"
# The time is now, UTC.
first=$(head -1 "$WORK/agent.log" | cut -d' ' -f1)
age=$(( $(date -u +%s) - $(date -u -d "$first" +%s) ))
{ [ "$age" -ge 0 ] && [ "$age" -le 120 ]; } || fail "the first line's time $first is not now (age ${age}s)"

LAST="agent --log-format json"
run_agent --log-format json
while IFS= read -r line; do
  jq -e '(keys_unsorted == ["ts", "level", "msg"]) and (.level | IN("debug", "info", "warning", "error"))
         and (.ts | test("^[0-9-]+T[0-9:.]+Z$")) and (.msg | length > 0)' <<<"$line" >/dev/null ||
    fail "not a log object: $line"
done <"$WORK/agent.log"
grep -q '"msg":"serving /metrics and /healthz on 127.0.0.1:' "$WORK/agent.log" || fail "no serving line: $(cat "$WORK/agent.log")"

run agent --config "$WORK/node.yaml" --log-format xml
expect_usage_error "log-format"
finish
