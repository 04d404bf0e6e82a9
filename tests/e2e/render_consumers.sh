#!/usr/bin/env bash
# End-to-end: what the consumers of rendered files will do equals the plan (issue 17). Every example is
# planned and rendered; for every NVIDIA device plugin config, tests/e2e/plugin_semantics.py derives what
# the plugin advertises and the MPS limits it sets, and compares them with the plan. CDI specs declare
# the lowest version they need and give MIG devices their /dev nodes; node-labels.sh refuses a node with
# other GPUs than planned.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CHECK="$ROOT/tests/e2e/plugin_semantics.py"
total=0

check_plan() {  # name plan.json
  run render "$2" --target all -o "$WORK/$1"
  expect_rc 0
  python3 "$CHECK" "$2" "$WORK/$1" >"$WORK/$1.check" 2>&1 || fail "$1: $(cat "$WORK/$1.check")"
  total=$((total + $(grep -Eo '^[0-9]+' "$WORK/$1.check")))
  # CDI: the lowest version the content needs, and three device nodes for every MIG device.
  for spec in "$WORK/$1"/cdi/*/gpupack.io-gpu.json; do
    jq -e '.cdiVersion == "0.3.0" or .cdiVersion == "0.5.0"' "$spec" >/dev/null || fail "$spec: cdiVersion $(jq .cdiVersion "$spec")"
    jq -e '[.devices[] | select(.containerEdits.env[0] | test(":")) | .containerEdits.deviceNodes | length == 3
            and (.[1].path | startswith("/dev/nvidia-caps/nvidia-cap"))] | all' "$spec" >/dev/null ||
      fail "$spec: a MIG device lacks its /dev/nvidia-caps nodes"
  done
}

# Every example, and the embedded scenario.
for example in "$ROOT"/examples/*.yaml; do
  name=$(basename "$example" .yaml)
  run plan "$example" --format json -o "$WORK/$name.json"
  [ "$RC" -eq 0 ] || continue  # an example that needs --gpu (no-fleet.yaml) is not a plan
  check_plan "$name" "$WORK/$name.json"
done
run plan --format json -o "$WORK/default.json"
expect_rc 0
check_plan default "$WORK/default.json"

# The render tests' plan, and the same plan with limits the plugin's MPS division gives (node-2: 2 clients
# of a 16 GiB P100 at 50% and 8 GiB): that node gets an MPS config, and it is checked like the others.
check_plan mixed "$ROOT/tests/render/data/plan-mixed.json"
check_plan consumers "$ROOT/tests/render/data/plan-consumers.json"
grep -q "whole-gpu-mps-gpux4" "$WORK/consumers/k8s-device-plugin/configmap.yaml" || fail "no MPS config for the equal-MPS node"
grep -q "nvidia.com/mig-1g.10gb.me" "$WORK/consumers/k8s-workloads/deployments.yaml" || fail "+me resource name"
jq '(.placements[] | select(.gpu == "gpu3") | .memory_limit_bytes) = 8589934592' \
  "$ROOT/tests/render/data/plan-mixed.json" >"$WORK/equal.json"
check_plan equal "$WORK/equal.json"
grep -q "whole-gpu-mps-gpux2" "$WORK/equal/k8s-device-plugin/configmap.yaml" || fail "no MPS config for equal limits"
[ "$total" -ge 2 ] || fail "only $total plugin configs checked"
# The checker itself catches a config that would give other limits (replicas 4: 25% and 4096M each).
cp -r "$WORK/equal" "$WORK/broken"
sed -i 's/replicas: 2/replicas: 4/' "$WORK/broken/k8s-device-plugin/configmap.yaml"
python3 "$CHECK" "$WORK/equal.json" "$WORK/broken" >"$WORK/broken.check" 2>&1 && fail "checker accepted replicas 4"
grep -q "advertises 4 x 1 = 4, the plan has 2" "$WORK/broken.check" || fail "checker: $(cat "$WORK/broken.check")"
grep -q "plugin gives 25% and 4096M, plan 50% and 8192M" "$WORK/broken.check" || fail "checker: $(cat "$WORK/broken.check")"

# node-labels.sh checks GPU feature discovery's GPU count before labelling (a fake kubectl here).
bin="$WORK/bin"
mkdir -p "$bin"
cat >"$bin/kubectl" <<'KUBECTL'
#!/usr/bin/env bash
if [ "$1" = get ]; then echo "${FAKE_GPU_COUNT:-1}"; else echo "kubectl $*" >>"$KUBECTL_LOG"; fi
KUBECTL
chmod +x "$bin/kubectl"
KUBECTL_LOG="$WORK/kubectl.log" PATH="$bin:$PATH" FAKE_GPU_COUNT=1 "$WORK/equal/k8s-device-plugin/node-labels.sh" \
  >/dev/null 2>&1 || fail "node-labels.sh refused nodes with the planned GPU count"
grep -q "nvidia.com/device-plugin.config=whole-gpu-mps-gpux2" "$WORK/kubectl.log" || fail "node-2 not labelled"
rm -f "$WORK/kubectl.log"
KUBECTL_LOG="$WORK/kubectl.log" PATH="$bin:$PATH" FAKE_GPU_COUNT=2 "$WORK/equal/k8s-device-plugin/node-labels.sh" \
  >/dev/null 2>"$WORK/guard.err" && fail "node-labels.sh labelled a node with an unplanned GPU"
grep -q "label nvidia.com/gpu.count is '2', the files were rendered for '1'" "$WORK/guard.err" || fail "guard message: $(cat "$WORK/guard.err")"
[ ! -e "$WORK/kubectl.log" ] || fail "a node was labelled before the guard failed"

# mig-parted: a +me.all profile names the minimum mig-parted version in README.txt.
jq '.gpus[1].mig[2].profile = "1g.24gb+me.all"' "$ROOT/tests/render/data/plan-mixed.json" >"$WORK/meall.json"
run render "$WORK/meall.json" --target mig-parted -o "$WORK/meall"
if [ "$RC" -eq 0 ]; then
  grep -q "mig-parted only from v0.13.0 on" "$WORK/meall/README.txt" || fail "README lacks the mig-parted version"
else
  expect_usage_error "1g.24gb\+me.all"  # the plan reader refuses a profile the model does not have
fi
finish
