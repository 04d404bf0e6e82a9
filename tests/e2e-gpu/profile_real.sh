#!/usr/bin/env bash
# GPU test (label gpu): `gpupack profile --sweep` on the real example clients (examples/clients/: resnet18
# at batch 1, launch-bound; an MLP at batch 8, GPU-bound; a GEMM batch job without sweep), and a program
# that never uses the GPU. Needs an NVIDIA GPU, nvidia-cuda-mps-control, python3 with torch and torchvision.
# Writes each profile JSON (NAME.json) and its summary and plan entry (NAME.txt) under $OUT/profiles when OUT is set (else a temp dir).
# Never changes the GPU's settings; gpupack quits its private MPS daemon itself.
RESULTS="${OUT:-}"  # the device machine's output folder; lib.sh reuses the name OUT for stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
CLIENTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../examples/clients" && pwd)"

nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU here" >&2; exit 1; }
python3 -c "import torch, torchvision; assert torch.cuda.is_available()" || { echo "no PyTorch with CUDA here" >&2; exit 1; }
DEST="${RESULTS:-$WORK}/profiles"
mkdir -p "$DEST"
WINDOW=${PROFILE_WINDOW:-10}

# check FILE PYTHON-EXPRESSION: the expression over the loaded JSON `p` is true.
check() {
  python3 - "$1" "$2" <<'PY' || fail "$(basename "$1"): $2"
import json, sys
p = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

profile_client() {  # name script [--sweep]
  local name=$1 script=$2; shift 2
  run profile --name "$name" --warmup 3 --duration "$WINDOW" "$@" -o "$DEST/$name.json" -- \
    python3 "$CLIENTS/$script" --duration 600
  printf '%s\n%s\n' "$ERR" "$OUT" >"$DEST/$name.txt"  # the summary, then the plan entry
  echo "== $name"; cat "$DEST/$name.txt"
  expect_rc 0
  expect_out "^  - name: $name$"
  expect_out "^    memory: [0-9.]+[MG]iB$"
  local f="$DEST/$name.json"
  check "$f" 'p["schema_version"] == 1 and p["memory"]["peak_bytes"] > 100 * 2**20'
  check "$f" 'p["window"]["complete"] and p["window"]["start"] == "ready-line"'
  check "$f" 'p["requests"] is not None and p["requests"]["req_per_s"] > 10 and p["requests"]["p99_ms"] > 0'
  check "$f" 'p["activity"]["source"] in ("gpm", "nvml-utilization") and p["host_cpu_cores"] > 0.05'
}

profile_client resnet18-b1 resnet18_b1.py --sweep
check "$DEST/resnet18-b1.json" '[q["pct"] for q in p["sm_share_curve"]] == [100, 50, 25, 12] and p["compute_demand"]["method"] == "sweep"'
profile_client mlp-b8 mlp_b8.py --sweep
check "$DEST/mlp-b8.json" 'len(p["sm_share_curve"]) == 4 and p["compute_demand"]["method"] == "sweep"'
profile_client gemm gemm_batch.py
check "$DEST/gemm.json" 'p["compute_demand"]["share"] > 0.5'

# A program that never touches the GPU: one line, exit 1, no entry.
run profile --warmup 1 --duration 2 -- python3 -c "import time; time.sleep(3)"
expect_rc 1
expect_no_out
expect_err "never used the GPU"
finish
