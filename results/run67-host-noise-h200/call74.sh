#!/usr/bin/env bash
# run74: the profile's host-core probe as committed (eight independent chains): bert-base-b4 and
# mobilenet-v3-b8 alone, 4 runs each, 5 s windows, no MPS.
set -u
G=$PWD/.device/gp
mkdir -p "$OUT/r"
for w in bert-base-b4:bert_base_b4.py mobilenet-v3-b8:mobilenet_v3_b8.py; do
  timeout 120 $G profile --duration 5 --warmup 2 --baseline-runs 4 --name "${w%%:*}" -o "$OUT/r/${w%%:*}.json" -- python3 "examples/clients/${w#*:}" >"$OUT/r/${w%%:*}.txt" 2>&1
  echo "${w%%:*} rc $?"
done
tar czf "$OUT/run.tgz" -C "$OUT" r
for f in "$OUT"/r/*.txt; do grep -E "^  (alone|host cores|warning)" "$f"; done
rm -rf "$OUT/r"
