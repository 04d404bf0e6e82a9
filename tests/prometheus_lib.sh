#!/usr/bin/env bash
# Sourced by the e2e tests that run a real Prometheus (prometheus.sh, dcgm_join.sh) after tests/e2e/lib.sh:
# start_prometheus (config $WORK/prometheus.yml, port $PROM_PORT; sets PROM), query and wait_for.

start_prometheus() {
  prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
    --web.listen-address="127.0.0.1:$PROM_PORT" >"$WORK/prometheus.log" 2>&1 &
  # shellcheck disable=SC2034  # the test stops it
  PROM=$!
}

# query EXPR: Prometheus's JSON answer, its error body included (bad PromQL says why), or, when no answer
# came, one JSON line with curl's exit code, so that a failure shows what Prometheus or the connection did.
query() {
  local rc=0 body
  body=$(curl -s --get "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1") || rc=$?
  if [ "$rc" -eq 0 ] && [ -n "$body" ]; then echo "$body"; else echo "{\"status\":\"no answer\",\"curl_exit\":$rc}"; fi
}
# wait_for QUERY JQ-CHECK: polls Prometheus (up to 60 s) until the check holds, then checks it once more.
wait_for() {
  # shellcheck disable=SC2034  # lib.sh's fail names it
  LAST="prometheus query $1"
  for _ in $(seq 1 120); do
    OUT=$(query "$1")
    jq -e "$2" <<<"$OUT" >/dev/null 2>&1 && break
    # Rejected PromQL stays rejected: no point in asking again.
    jq -e '.errorType == "bad_data"' <<<"$OUT" >/dev/null 2>&1 && break
    sleep 0.5
  done
  expect_json "$2"
}
