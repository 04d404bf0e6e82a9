#!/usr/bin/env bash
# End-to-end: `gpupack render` on a plan of every mode, checked by the tools that consume the files:
# ShellCheck and bash -n for scripts, a YAML/JSON parser for every file, the Kubernetes schemas
# (kubernetes-models) for Kubernetes objects, and the MPS scripts run against a fake control daemon.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PLAN="$ROOT/tests/render/data/plan-mixed.json"
VALIDATE="$ROOT/tests/k8s-validate/validate.mjs"
FAKE_MPS="$(cd "$(dirname "$GPUPACK")" && pwd)/tests/fakes/fake-mps-control"
OUTDIR="$WORK/rendered"

run render "$PLAN" --target all -o "$OUTDIR"
expect_rc 0
expect_out "rendered [0-9]+ files into"
for f in README.txt mig-parted/config.yaml mig-parted/configmap.yaml mig-parted/node-labels.sh mps/node-0-gpu0/start.sh \
  mps/node-0-gpu0/stop.sh mps/node-0-gpu0/gpupack-mps-node-0-gpu0.service mps/node-0-gpu0/clients/chat-0.env \
  mps/node-0-gpu1-mig0/start.sh mps/node-2-gpu3/start.sh cdi/node-0/gpupack.io-gpu.json \
  gpupack-agent/node-0/node.yaml k8s-device-plugin/configmap.yaml k8s-device-plugin/node-labels.sh \
  node-template/node-template.json node-template/gpu.tf k8s-workloads/deployments.yaml k8s-workloads/node-labels.sh; do
  [ -f "$OUTDIR/$f" ] || fail "missing $f"
done

# Scripts: executable, bash -n, shellcheck clean. Configs: 0644.
while IFS= read -r script; do
  [ -x "$script" ] || fail "$script is not executable"
  bash -n "$script" || fail "bash -n $script"
  shellcheck "$script" || fail "shellcheck $script"
done < <(find "$OUTDIR" -name '*.sh')
while IFS= read -r config; do
  [ "$(stat -c %a "$config")" = 644 ] || fail "$config mode $(stat -c %a "$config"), expected 644"
done < <(find "$OUTDIR" -type f ! -name '*.sh')

# Every YAML and JSON file parses; Kubernetes objects validate against the official schemas.
mapfile -t data_files < <(find "$OUTDIR" -name '*.yaml' -o -name '*.json')
node "$VALIDATE" --parse-only "${data_files[@]}" >/dev/null || fail "a rendered YAML/JSON file does not parse"
node "$VALIDATE" "$OUTDIR/k8s-workloads/deployments.yaml" "$OUTDIR/k8s-device-plugin/configmap.yaml" "$OUTDIR/mig-parted/configmap.yaml" \
  "$OUTDIR/dra/resourceclaims.yaml" "$OUTDIR/dra/deployments.yaml" >"$WORK/k8s.log" 2>&1 ||
  fail "Kubernetes schema validation: $(cat "$WORK/k8s.log")"
grep -q "objects valid, 0 invalid" "$WORK/k8s.log" || fail "no Kubernetes objects validated"
# The device plugin configs inside the ConfigMap parse too.
jq -e '.cdiVersion == "0.3.0" and .kind == "gpupack.io/gpu"' "$OUTDIR/cdi/node-0/gpupack.io-gpu.json" >/dev/null ||
  fail "CDI spec header"

# DRA: the claims are resource.k8s.io/v1 (kubernetes-models 5.1.0 validated them above), every Deployment
# references a claim of the file, and every opaque config is for NVIDIA's driver.
grep -q "kind: ResourceClaim" "$OUTDIR/dra/resourceclaims.yaml" || fail "no ResourceClaim rendered"
node "$VALIDATE" --parse-only "$OUTDIR/dra/resourceclaims.yaml" >/dev/null || fail "dra claims do not parse"
while read -r claim; do
  grep -q "^  name: $claim\$" "$OUTDIR/dra/resourceclaims.yaml" || fail "Deployment references missing claim $claim"
done < <(grep -o 'resourceClaimName: .*' "$OUTDIR/dra/deployments.yaml" | cut -d' ' -f2 | sort -u)
# Bad plans for the DRA target: exit 2, one line, nothing written.
jq '.gpus[2].model = ""' "$PLAN" >"$WORK/nomodel.json"
run render "$WORK/nomodel.json" --target dra -o "$WORK/bad-dra1"
expect_usage_error "model"
[ ! -e "$WORK/bad-dra1" ] || fail "output written for a GPU without a model"
jq '.gpus[1].slices[0].profile = "5g.50gb" | .gpus[1].mig[0].profile = "5g.50gb"' "$PLAN" >"$WORK/badprofile.json"
run render "$WORK/badprofile.json" --target dra -o "$WORK/bad-dra2"
expect_usage_error "5g.50gb"
[ ! -e "$WORK/bad-dra2" ] || fail "output written for an unknown MIG profile"

# README names every target in apply order and what the NVIDIA plugin cannot express.
grep -q "node node-0 is not expressible with the NVIDIA device plugin" "$OUTDIR/README.txt" || fail "README lacks the plugin note"

# An existing directory is not replaced without --force; --force replaces it.
run render "$PLAN" --target mps -o "$OUTDIR"
expect_usage_error "already exists; use --force"
[ -f "$OUTDIR/node-template/gpu.tf" ] || fail "existing output was touched"
run render "$PLAN" --target mps -o "$OUTDIR" --force
expect_rc 0
[ ! -e "$OUTDIR/node-template" ] || fail "--force did not replace the directory"

# Bad input: exit 2, one line, no output directory.
run render "$PLAN" --target mps,helm -o "$WORK/bad1"
expect_usage_error "unknown render target 'helm'; accepted: all, mig-parted"
[ ! -e "$WORK/bad1" ] || fail "output written for a bad target"
run render "$WORK/missing.json" -o "$WORK/bad2"
expect_usage_error "cannot read"
printf '{"gpus": [' >"$WORK/broken.json"
run render "$WORK/broken.json" -o "$WORK/bad3"
expect_usage_error "JSON parse error at byte"
jq '.placements[0].workload = "Bad Name; rm -rf /"' "$PLAN" >"$WORK/evil.json"
run render "$WORK/evil.json" -o "$WORK/bad4"
expect_usage_error "not a valid Kubernetes name"
[ ! -e "$WORK/bad4" ] || fail "output written for a bad plan"
run render "$PLAN"
expect_usage_error "output is required"

# Plan and render in one step, and a workloads YAML planned on the fly by render.
run plan "$ROOT/examples/mixed-fleet.yaml" --render "$WORK/planned" --format json -o "$WORK/planned.json"
expect_rc 0
[ -f "$WORK/planned/README.txt" ] || fail "plan --render wrote no README.txt"
[ -f "$WORK/planned.json" ] || fail "plan --render -o wrote no plan"
run render "$ROOT/examples/mixed-fleet.yaml" --target k8s-workloads,gpupack-agent -o "$WORK/from-yaml"
expect_rc 0
[ -f "$WORK/from-yaml/k8s-workloads/deployments.yaml" ] || fail "render of a workloads YAML wrote no Deployments"
run plan "$ROOT/examples/mixed-fleet.yaml" --render "$WORK/planned"
expect_usage_error "already exists"

# The MPS scripts against a fake nvidia-cuda-mps-control and nvidia-smi on PATH.
if [ -x "$FAKE_MPS" ]; then
  bin="$WORK/bin"
  mkdir -p "$bin"
  ln -s "$FAKE_MPS" "$bin/nvidia-cuda-mps-control"
  cat >"$bin/nvidia-smi" <<'SMI'
#!/usr/bin/env bash
# Fake nvidia-smi: four GPUs; GPU 1 has MIG instances.
if [ "${1:-}" = "-L" ]; then
  for i in 0 1 2 3; do
    echo "GPU $i: NVIDIA A100-SXM4-80GB (UUID: GPU-0000000$i-aaaa-bbbb-cccc-dddddddddddd)"
    if [ "$i" = 1 ]; then
      echo "  MIG 3g.40gb     Device  0: (UUID: MIG-11111111-2222-3333-4444-555555555555)"
      echo "  MIG 2g.20gb     Device  1: (UUID: MIG-22222222-2222-3333-4444-555555555555)"
    fi
  done
  exit 0
fi
for a in "$@"; do case "$a" in -i) want=next ;; *) [ "${want:-}" = next ] && index=$a && want= ;; esac; done
echo "GPU-0000000${index:-0}-aaaa-bbbb-cccc-dddddddddddd"
SMI
  chmod +x "$bin/nvidia-smi"
  export GPUPACK_MPS_ROOT="$WORK/mps" GPUPACK_MPS_LOG_ROOT="$WORK/mps-log"
  for daemon in node-0-gpu0 node-0-gpu1-mig0; do
    PATH="$bin:$PATH" "$OUTDIR/mps/$daemon/start.sh" >"$WORK/start.log" 2>&1 || fail "start.sh $daemon: $(cat "$WORK/start.log")"
    log="$WORK/mps-log/$daemon/control.log"
    grep -q "set_default_active_thread_percentage" "$log" || fail "$daemon: no set_default_active_thread_percentage"
    grep -q "set_default_device_pinned_mem_limit 0 " "$log" || fail "$daemon: no set_default_device_pinned_mem_limit"
    PATH="$bin:$PATH" GPUPACK_MPS_STOP_TIMEOUT=20 "$OUTDIR/mps/$daemon/stop.sh" >"$WORK/stop.log" 2>&1 ||
      fail "stop.sh $daemon: $(cat "$WORK/stop.log")"
    grep -q "quit" "$log" || fail "$daemon: no quit in $(cat "$log")"
    grep -q "stopped" "$WORK/stop.log" || fail "$daemon: stop did not wait for the daemon"
  done
  # The MIG daemon serves the 3g.40gb instance, found by profile under GPU 1 in nvidia-smi -L.
  PATH="$bin:$PATH" "$OUTDIR/mps/node-0-gpu1-mig0/start.sh" >"$WORK/start.log" 2>&1 || fail "MIG start.sh"
  grep -q "up for MIG-11111111-2222-3333-4444-555555555555" "$WORK/start.log" || fail "MIG UUID lookup: $(cat "$WORK/start.log")"
  PATH="$bin:$PATH" "$OUTDIR/mps/node-0-gpu1-mig0/stop.sh" >/dev/null 2>&1 || fail "MIG stop.sh"
  # A GPU that is not visible stops start.sh with a clear message and starts nothing.
  PATH="$bin:$PATH" GPUPACK_DEVICE_UUID=GPU-not-here "$OUTDIR/mps/node-0-gpu0/start.sh" >"$WORK/start.log" 2>&1 &&
    fail "start.sh accepted an invisible GPU"
  grep -q "is not visible on this host" "$WORK/start.log" || fail "no clear message for an invisible GPU"
else
  fail "fake-mps-control not built at $FAKE_MPS"
fi

finish
