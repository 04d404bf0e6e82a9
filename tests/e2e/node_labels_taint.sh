#!/usr/bin/env bash
# The rendered k8s-workloads/node-labels.sh labels the planned nodes and taints them only with --taint
# (issue 33: NVIDIA's GPU Operator's DaemonSets tolerate only nvidia.com/gpu, so a default taint kept its new
# pods off the node). Run against a kubectl on PATH that records its arguments.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mkdir -p "$WORK/bin"
cat >"$WORK/bin/kubectl" <<SH
#!/usr/bin/env bash
echo "\$*" >>"$WORK/kubectl.log"
SH
chmod +x "$WORK/bin/kubectl"

run plan --format json -o "$WORK/plan.json"
expect_rc 0
run render "$WORK/plan.json" --target k8s-workloads -o "$WORK/rendered"
expect_rc 0
SCRIPT="$WORK/rendered/k8s-workloads/node-labels.sh"
# The embedded plan shares its node's GPUs, so the script has a taint to offer.
grep -q "gpupack.io/sharing=" "$SCRIPT" || { LAST="render"; fail "no sharing taint in $SCRIPT"; }

labels_only() {
  LAST="node-labels.sh $*"
  rm -f "$WORK/kubectl.log"
  set +e
  PATH="$WORK/bin:$PATH" GPUPACK_NODE_gpu_node_0=worker-17 bash "$SCRIPT" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
  RC=$?
  set -e
  OUT=$(cat "$WORK/kubectl.log" 2>/dev/null || true)
  ERR=$(cat "$WORK/err.txt")
}

labels_only
expect_rc 0
expect_out "^label node worker-17 gpupack.io/node=gpu-node-0 --overwrite$"
grep -q '^taint' <<<"$OUT" && fail "tainted without --taint"

labels_only --taint
expect_rc 0
expect_out "^label node worker-17 gpupack.io/node=gpu-node-0 --overwrite$"
expect_out "^taint node worker-17 gpupack.io/sharing=[a-z-]+:NoSchedule --overwrite$"

labels_only --taints
expect_rc 2
expect_err "unknown argument '--taints' \(accepted: --taint\)"
[ -z "$OUT" ] || fail "kubectl ran before the bad argument was refused"
finish
