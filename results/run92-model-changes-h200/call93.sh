#!/usr/bin/env bash
# run92, second call: do a launch-bound program's own copies make it wait for SMs? The MPS co-location grid of
# bert-base-b4 and mobilenet-v3-b8 to 12 copies (the model carries a wait on their summed SM activity past every
# SM; run92's inference mix measured bert 12-45% faster than predicted). Then resnet50-b32 profiled afresh as
# corpus_validate.sh profiles (its run55 profile predicts it 1.6-1.9x faster than it runs in the mixes).
# Only run.tgz is left under $OUT; a short table last.
set -u
G=$PWD/.device/gp
C=examples/clients
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
export TMPDIR=$OUT/tmp; mkdir -p "$TMPDIR"
for w in bert-base-b4 mobilenet-v3-b8; do
  s=$(date +%s)
  timeout 170 "$G" profile --name "$w" --duration 6 --baseline-runs 1 --grid 4,8,12 --format json \
    -o "$OUT/grid-$w.json" -- python3 "$C/${w//-/_}.py" --duration 3600 >/dev/null 2>"$OUT/grid-$w.log"
  echo "grid $w rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
done
s=$(date +%s)
timeout 240 "$G" profile --name resnet50-b32 --duration 6 --baseline-runs 3 --sweep 100,50,25 --format json \
  -o "$OUT/resnet50-b32.json" -- python3 "$C/resnet50_b32.py" --duration 3600 >/dev/null 2>"$OUT/profile-resnet50.log"
echo "profile resnet50-b32 rc $? in $(( $(date +%s)-s )) s"
bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
rm -rf "$TMPDIR"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
python3 - "$OUT" <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/grid-*.json")):
    d = json.load(open(f))
    for c in (d.get("colocation") or {}).get("cells", []):
        if c.get("mode") != "mps": continue
        print(d["name"], "K", c["k"], "agg", round(c["aggregate_req_per_s"] or 0), "per copy", round((c["aggregate_req_per_s"] or 0) / max(1, c["k"]), 1),
              "worst p99", round(c.get("worst_p99_ms") or 0, 2), "sm", round(c.get("gpu_sm_active") or 0, 3))
f = sys.argv[1] + "/resnet50-b32.json"
try:
    b = json.load(open(f))["baseline"]; print("resnet50 baseline", b["req_per_s"], b["p99_ms"], b.get("flag"))
except Exception as e: print("resnet50", e)
PY
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
