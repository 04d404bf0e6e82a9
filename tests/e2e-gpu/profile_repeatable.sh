#!/usr/bin/env bash
# GPU test (label gpu), issue 36 item 2: profile baselines repeat. Profiles one example client three times
# (each `gpupack profile --baseline-runs 3 --sweep 100`: the median of three fresh runs alone and three under
# the private MPS daemon at 100%), prints the three baselines and their spread, and checks the target: the
# three profiles' median req/s and p50 within 10% of each other ((max - min) / median). Then one profile
# with the measured sensitivity (--grid 2,4 --grid-timeslicing, and the GEMM neighbour at 25% and 50%),
# checked for shape. Needs an NVIDIA GPU, nvidia-cuda-mps-control, python3 with torch (and torchvision for
# the default client). Never changes the GPU's settings; gpupack quits its private MPS daemon itself.
#   CLIENT=resnet18_b1.py (a script of examples/clients/), PROFILE_WINDOW=10 (seconds per window),
#   PARTS="repeat sensitivity" (either alone: the two take about 5 and 3 minutes with resnet18_b1 at 10 s)
# Writes each profile (repeat-N.json, sensitivity.json), its summary (.txt) and table.txt under $OUT/profile-repeatable
# when OUT is set (else a temp dir).
RESULTS="${OUT:-}"  # the device machine's output folder; lib.sh reuses the name OUT for stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
CLIENTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../examples/clients" && pwd)"
SCRIPT=${CLIENT:-resnet18_b1.py}
WINDOW=${PROFILE_WINDOW:-10}
PARTS=${PARTS:-repeat sensitivity}

nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU here" >&2; exit 1; }
python3 -c "import torch; assert torch.cuda.is_available()" || { echo "no PyTorch with CUDA here" >&2; exit 1; }
DEST="${RESULTS:-$WORK}/profile-repeatable"
mkdir -p "$DEST"

if [[ " $PARTS " == *" repeat "* ]]; then
for n in 1 2 3; do
  run profile --name repeat --duration "$WINDOW" --baseline-runs 3 --sweep 100 -o "$DEST/repeat-$n.json" -- \
    python3 "$CLIENTS/$SCRIPT" --duration 600
  printf '%s\n%s\n' "$ERR" "$OUT" >"$DEST/repeat-$n.txt"
  echo "== profile $n"; cat "$DEST/repeat-$n.txt"
  expect_rc 0
done

# The table: each profile's baselines (medians of their runs, the runs' own spread), then the spread of
# the three medians: the target.
python3 - "$DEST" >"$DEST/table.txt" <<'PY' || fail "the three profiles' baselines are not within 10% (req/s, p50): $DEST/table.txt"
import json, sys
dest = sys.argv[1]
profiles = [json.load(open(f"{dest}/repeat-{n}.json")) for n in (1, 2, 3)]
def spread(values):
    values = sorted(values)
    median = values[len(values) // 2]
    return (values[-1] - values[0]) / median
def pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"
ok = True
for setting, get in (("alone", lambda p: p["baseline"]), ("MPS 100%", lambda p: p["baseline"]["mps"])):
    print(f"{setting}: profile  req/s    p50 ms  p99 ms  runs' spread req/s,p50,p99  repeatable")
    for n, p in enumerate(profiles, 1):
        b = get(p)
        s = b["spread"]
        print(f"  {n:<16}{b['req_per_s']:<9.1f}{b['p50_ms']:<8.3f}{b['p99_ms']:<8.3f}"
              f"{pct(s['req_per_s'])},{pct(s['p50_ms'])},{pct(s['p99_ms'])}  {b['repeatable']}")
    req = spread([get(p)["req_per_s"] for p in profiles])
    p50 = spread([get(p)["p50_ms"] for p in profiles])
    p99 = spread([get(p)["p99_ms"] for p in profiles])
    print(f"  across the 3 profiles: req/s {pct(req)}, p50 {pct(p50)}, p99 {pct(p99)} (target: req/s and p50 within 10%)")
    ok = ok and req <= 0.10 and p50 <= 0.10
sys.exit(0 if ok else 1)
PY
cat "$DEST/table.txt"
fi

# Measured sensitivity on the real GPU: the K-grid (MPS and time-slicing) and the GEMM neighbour at 25% and 50%.
if [[ " $PARTS " == *" sensitivity "* ]]; then
run profile --name sensitivity --duration "$WINDOW" --baseline-runs 1 --grid 2,4 --grid-timeslicing \
  --neighbour-cmd "python3 $CLIENTS/gemm_batch.py --duration 600" --neighbour-caps 25,50 -o "$DEST/sensitivity.json" -- \
  python3 "$CLIENTS/$SCRIPT" --duration 600
printf '%s\n%s\n' "$ERR" "$OUT" >"$DEST/sensitivity.txt"
echo "== sensitivity"; cat "$DEST/sensitivity.txt"
expect_rc 0
python3 - "$DEST/sensitivity.json" <<'PY' || fail "sensitivity profile: unexpected shape"
import json, sys
g = json.load(open(sys.argv[1]))["colocation"]
cells = g["cells"]
assert [(c["mode"], c["k"]) for c in cells if not c["with_neighbour"]] == [("timeslicing", 1), ("timeslicing", 2), ("timeslicing", 4), ("mps", 1), ("mps", 2), ("mps", 4)]
assert all(c["error"] == "" for c in cells), [c["error"] for c in cells]
assert all(c["aggregate_req_per_s"] > 0 and c["host_cpu_cores"] > 0 for c in cells if c["k"] > 0)
assert g["node_cores"] >= 1
neighbour = [c for c in cells if c["with_neighbour"]]
assert [c["neighbour_cap"] for c in neighbour] == [None, 25, 50] and neighbour[0]["neighbour"]["req_per_s"] > 0
assert all(c["neighbour_fraction"] is not None for c in neighbour[1:])
PY
fi
finish
