#!/usr/bin/env bash
# run69: the host-core probe in the profile's baseline runs (bert 6 runs, mobilenet and resnet50 4 each,
# 5 s windows, no MPS), then tests/e2e-gpu/standard_neighbour.sh (the compute neighbour at its default 4500).
set -u
G=$PWD/.device/gp
mkdir -p "$OUT/r"
bash .device/mps_cleanup.sh >"$OUT/r/cleanup-before.txt" 2>&1
prof() { # name runs script
  timeout 170 $G profile --duration 5 --warmup 2 --baseline-runs "$2" --name "$1" -o "$OUT/r/$1.json" -- python3 "examples/clients/$3" >"$OUT/r/$1.txt" 2>&1
  echo "$1 rc $?" >>"$OUT/r/rc.txt"
}
prof bert-base-b4 6 bert_base_b4.py
prof mobilenet-v3-b8 4 mobilenet_v3_b8.py
prof resnet50-b32 4 resnet50_b32.py
( OUT=$OUT/r timeout 240 bash tests/e2e-gpu/standard_neighbour.sh "$G" ) >"$OUT/r/standard-neighbour.log" 2>&1
echo "standard_neighbour rc $?" >>"$OUT/r/rc.txt"
bash .device/mps_cleanup.sh >>"$OUT/r/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" r
cat "$OUT/r/rc.txt"; tail -5 "$OUT/r/standard-neighbour.log"
for f in "$OUT"/r/*-b*.txt; do echo "== $f"; grep -E "^  (alone|host cores|warning)" "$f"; done
rm -rf "$OUT/r"
