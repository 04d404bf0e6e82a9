#!/usr/bin/env bash
# Sourced by the scripts that start `gpupack agent --port 0`: the port it chose, read from its log.

# agent_port LOG [TRIES]: waits up to TRIES x 0.1 s (default 200) for the agent to log its address and
# prints the port; prints nothing when the agent never said.
agent_port() {
  local log=$1 tries=${2:-200} port=""
  for _ in $(seq 1 "$tries"); do
    port=$(sed -n 's/.*serving \/metrics and \/healthz on 127.0.0.1:\([0-9]*\).*/\1/p' "$log")
    [ -n "$port" ] && break
    sleep 0.1
  done
  echo "$port"
}
