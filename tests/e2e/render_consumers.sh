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

# Issue 34: every example and the embedded scenario planned for each consumer (--deploy-with) renders
# files that consumer accepts: the NVIDIA plugin target gives every node a config (none refused) whose
# derived limits equal the plan's, the DRA target finds no claim it cannot express and its objects
# validate, and README.txt names the consumer and the version its facts were checked against.
VALIDATE="$ROOT/tests/k8s-validate/validate.mjs"
can_validate=1
if ! command -v node >/dev/null || [ ! -d "$ROOT/tests/k8s-validate/node_modules" ]; then
  echo "SKIP DRA schema validation: node or tests/k8s-validate/node_modules missing (scripts/setup-deps.sh installs them)"
  can_validate=0
fi
plugin_nodes=0
for example in "$ROOT"/examples/*.yaml default; do
  name=$(basename "$example" .yaml)
  for consumer in gpupack-agent nvidia-device-plugin dra; do
    if [ "$example" = default ]; then run plan --deploy-with "$consumer" --format json; else run plan "$example" --deploy-with "$consumer" --format json; fi
    [ "$RC" -eq 2 ] && [ "$name" = no-fleet ] && continue  # needs --gpu
    [ "$RC" -eq 0 ] || [ "$RC" -eq 4 ] || { fail "$name for $consumer: exit $RC"; continue; }
    plan="$WORK/$name-$consumer.json"
    printf '%s\n' "$OUT" >"$plan"
    expect_json ".deploy_with == \"$consumer\" and ([.consumers[].consumer] == [\"gpupack-agent\", \"nvidia-device-plugin\", \"dra\"])"
    # The row of the consumer planned for is the plan itself.
    # shellcheck disable=SC2016 # jq variables, not the shell's
    expect_json '. as $p | .consumers[] | select(.consumer == $p.deploy_with) | .gpus_used == $p.summary.gpus_used and .placed == $p.summary.placed'
    out="$WORK/$name-$consumer"
    run render "$plan" --target all -o "$out"
    expect_rc 0
    if [ "$consumer" = gpupack-agent ]; then
      grep -q "for pods served by the gpupack-agent\. " "$out/README.txt" || fail "$name: README.txt does not name the agent"
    else
      grep -Eq "for pods served by the $consumer \(what it can express checked against [^;]*v[0-9]+\.[0-9]+\.[0-9]+" "$out/README.txt" ||
        fail "$name: README.txt does not name $consumer and its version"
    fi
    case "$consumer" in
      nvidia-device-plugin)
        grep -q "not expressible with the NVIDIA device plugin" "$out/README.txt" &&
          fail "$name: the plugin target refused a node planned for it: $(grep -A3 'not expressible' "$out/README.txt")"
        python3 "$CHECK" "$plan" "$out" >"$out.check" 2>&1 || fail "$name for the plugin: $(cat "$out.check")"
        planned=$(jq '[.gpus[].node] | unique | length' "$plan")
        labelled=$(grep -c "nvidia.com/device-plugin.config=" "$out/k8s-device-plugin/node-labels.sh" || true)
        [ "$planned" -eq 0 ] || [ "$labelled" -eq "$planned" ] || fail "$name: $labelled of $planned nodes get a plugin config"
        plugin_nodes=$((plugin_nodes + labelled))
        # The plugin gives a pod any replica of its node: a node with shared devices serves one tenant.
        jq -e '[.gpus | group_by(.node)[] | select(any(.[].slices[]; .sharing != "exclusive" and .sharing != "streams"))
                | [.[].slices[].tenant] | unique | length] | all(. <= 1)' "$plan" >/dev/null ||
          fail "$name: tenants share a node whose devices the plugin shares"
        # Its pods ask for NVIDIA's names only.
        grep -Eq "gpupack\.io/[a-z0-9.-]+: \"?[0-9]" "$out/k8s-workloads/deployments.yaml" && fail "$name: a pod requests a gpupack.io resource"
        ;;
      dra)
        grep -q "different limits" "$out/README.txt" && fail "$name: a DRA claim the driver cannot express"
        if [ "$can_validate" -eq 1 ] && [ -s "$out/dra/resourceclaims.yaml" ]; then
          node "$VALIDATE" "$out/dra/resourceclaims.yaml" "$out/dra/deployments.yaml" >"$out.k8s" 2>&1 ||
            fail "$name: DRA objects do not validate: $(cat "$out.k8s")"
        fi
        ;;
    esac
  done
done
[ "$plugin_nodes" -ge 4 ] || fail "only $plugin_nodes nodes got an NVIDIA plugin config"
# The agent's plan of the embedded scenario is not one the plugin can deploy: render says which node.
run render "$WORK/default-gpupack-agent.json" --deploy-with nvidia-device-plugin --target k8s-workloads -o "$WORK/refused"
expect_usage_error "node gpu-node-0 cannot be served by the NVIDIA device plugin"
# Bad consumers: exit 2, one line naming the input and what is accepted.
run plan --deploy-with kubevirt
expect_usage_error "--deploy-with 'kubevirt' is not a consumer; accepted: gpupack-agent, nvidia-device-plugin, dra"
run render "$WORK/default-dra.json" --deploy-with vgpu -o "$WORK/bad-consumer"
expect_usage_error "--deploy-with 'vgpu' is not a consumer; accepted: gpupack-agent, nvidia-device-plugin, dra"
[ ! -e "$WORK/bad-consumer" ] || fail "render wrote files for an unknown consumer"
printf 'fleet:\n  - {model: L4, deploy_with: kubevirt}\nworkloads:\n  - {name: a, memory: 1GiB, compute: 0.1}\n' >"$WORK/bad-pool.yaml"
run plan "$WORK/bad-pool.yaml"
expect_usage_error "'deploy_with' 'kubevirt' is not a consumer; accepted: gpupack-agent, nvidia-device-plugin, dra"
# Pools on the same nodes: the NVIDIA plugin sets one config per node, and a node runs one device plugin.
printf 'fleet:\n  - {model: H100-80GB, count: 1, deploy_with: nvidia-device-plugin}\n  - {model: L4, count: 1, mig: off}\nworkloads:\n  - {name: a, memory: 1GiB, compute: 0.1}\n' >"$WORK/shared-node.yaml"
run plan "$WORK/shared-node.yaml" --deploy-with nvidia-device-plugin
expect_usage_error "fleet entries 1 \(H100-SXM5-80GB\) and 2 \(L4-24GB\) share node node-0 deployed with nvidia-device-plugin"
run plan "$WORK/shared-node.yaml"
expect_usage_error "share node node-0 but deploy with nvidia-device-plugin and gpupack-agent; a node runs one device plugin"

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
