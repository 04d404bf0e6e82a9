#!/usr/bin/env bash
# End-to-end: from `plan` to what a cluster runs, with no hand edits (issue 31). A scenario with real node
# names and deploy fields is planned and rendered; `kubectl kustomize` of the output builds (the agent's
# DaemonSet, one ConfigMap of every node's config, the workloads) and every object passes the Kubernetes
# schemas; `gpupack check` accepts the ConfigMap's files on a simulated machine and lists exactly the
# resources (and counts) the workloads request on that node; the agent's commands find their node's
# config in the directory by --node-name or $NODE_NAME; bad node names and configs exit 2 with one line.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

cat >"$WORK/scenario.yaml" <<'YAML'
fleet:
  - model: A100-80GB
    count: 2
    gpus_per_node: 1
    node_names: [gpu-a.example.internal, gpu-b.example.internal]
workloads:
  - name: chat
    tenant: team-a
    replicas: 9
    memory: 3GiB
    compute: 0.08
    latency_slo_ms: 40
    deploy: {image: "registry.example.com/chat:1.4", namespace: serving, cpu: 1.5, memory: 4Gi}
  - name: embed
    tenant: team-b
    replicas: 6
    memory: 1536MiB
    compute: 0.04
    deploy: {image: "registry.example.com/embed:2", namespace: serving}
  - name: nightly
    tenant: team-b
    replicas: 2
    memory: 10GiB
    compute: 0.3
    deploy: {image: "registry.example.com/batch@sha256:0123abcd", kind: cronjob, schedule: "0 3 * * *"}
YAML

run plan "$WORK/scenario.yaml" --format json -o "$WORK/plan.json" --render "$WORK/rendered/"
expect_rc 0
[ -f "$WORK/rendered/kustomization.yaml" ] || fail "no kustomization.yaml"
for node in gpu-a.example.internal gpu-b.example.internal; do
  [ -f "$WORK/rendered/gpupack-agent/$node/node.yaml" ] || fail "no node.yaml for $node"
done
jq -e '[.workloads[] | select(.name == "chat")][0] | .image == "registry.example.com/chat:1.4" and .cpu == 1.5' \
  "$WORK/plan.json" >/dev/null || fail "the plan JSON lacks the deploy fields"
# render from the JSON writes the same files as plan --render.
run render "$WORK/plan.json" -o "$WORK/again"
expect_rc 0
diff -r -x .gpupack-rendered "$WORK/rendered" "$WORK/again" >"$WORK/render.diff" || fail "render from JSON differs: $(head -20 "$WORK/render.diff")"

# The ConfigMap as the agent sees it: <node>.yaml per node in one directory.
mkdir -p "$WORK/configmap"
for node in gpu-a.example.internal gpu-b.example.internal; do
  cp "$WORK/rendered/gpupack-agent/$node/node.yaml" "$WORK/configmap/$node.yaml"
done
run check "$WORK/configmap" --gpu A100-80GB --format json
expect_rc 0
echo "$OUT" >"$WORK/check.json"
# What each node advertises equals what the workloads request there (resources and counts).
python3 - "$WORK/check.json" "$WORK/rendered/k8s-workloads/deployments.yaml" <<'PY' || fail "advertised resources differ from the requests"
import json, sys, re, collections
check = json.load(open(sys.argv[1]))
adv = collections.Counter()
for f in check["files"]:
    node = re.sub(r"\.yaml$", "", f["path"].split("/")[-1])
    for r in f["resources"]:
        if r["name"].startswith("gpupack.io/"):
            adv[(node, r["name"])] += r["devices"]
want = collections.Counter()
docs = open(sys.argv[2]).read().split("\n---\n")
for d in docs:
    kind = re.search(r"^kind: (\w+)", d, re.M)
    if not kind or kind.group(1) == "Namespace":
        continue
    pods = int((re.search(r"^  (?:replicas|parallelism): (\d+)", d, re.M) or re.search(r"parallelism: (\d+)", d)).group(1))
    node = re.search(r"values:\n\s+- (\S+)", d).group(1)
    res = re.search(r"limits:\n\s+(\S+): 1", d).group(1)
    if res.startswith("gpupack.io/"):
        want[(node, res)] += pods
if adv != want:
    print("advertised", dict(adv), "\nrequested", dict(want))
    sys.exit(1)
print(sum(want.values()), "pods match")
PY

# The agent's commands pick their node's file from the directory.
cat >"$WORK/two.yaml" <<'YAML'
version: 1
gpus:
  - {gpu: "0", mode: mps, clients: 2}
YAML
mkdir -p "$WORK/nodes"
cp "$WORK/two.yaml" "$WORK/nodes/worker-1.yaml"
export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/two-gpus.json"
run labels --config "$WORK/nodes" --node-name worker-1
expect_rc 0
expect_out '^gpupack.io/resource.mps-100.count=2$'
NODE_NAME=worker-1 run labels --config "$WORK/nodes"
expect_rc 0
run labels --config "$WORK/nodes" --node-name worker-2
expect_usage_error "holds no config for node worker-2"
run labels --config "$WORK/nodes"
expect_usage_error "name the node with --node-name or \\\$NODE_NAME"
run labels --config "$WORK/nodes" --node-name '../x'
expect_usage_error "is not a DNS-1123 subdomain"
unset GPUPACK_GPU_BACKEND

# gpupack check refuses what the agent would refuse, in one line.
printf 'version: 1\ngpus:\n  - {gpu: "0", mode: mps, clients: 2, limits: {memory: 50GiB}}\n' >"$WORK/over.yaml"
run check "$WORK/over.yaml" --gpu A100-80GB
expect_usage_error "over.yaml"
printf 'version: 1\ngpus:\n  - {gpu: "0", mode: turbo}\n' >"$WORK/bad.yaml"
run check "$WORK/bad.yaml"
expect_usage_error "not a sharing mode"

# Bad node names in the fleet: exit 2, one line.
sed 's/gpu-b.example.internal/GPU_B/' "$WORK/scenario.yaml" >"$WORK/bad-names.yaml"
run plan "$WORK/bad-names.yaml"
expect_usage_error "is not a DNS-1123 subdomain"
sed 's/gpu-b.example.internal/gpu-a.example.internal/' "$WORK/scenario.yaml" >"$WORK/twice.yaml"
run plan "$WORK/twice.yaml"
expect_usage_error "named twice"

# kustomize builds the whole deploy step and every object passes the schemas.
if kustomize_checks_possible "$ROOT"; then
  kustomize_validated "$ROOT" "$WORK/rendered" "$WORK/all.yaml"
  grep -q ' 0 invalid' "$WORK/validate.out" || fail "invalid objects: $(cat "$WORK/validate.out")"
  grep -q '^kind: DaemonSet' "$WORK/all.yaml" || fail "no agent DaemonSet"
  grep -q '^kind: CronJob' "$WORK/all.yaml" || fail "no CronJob"
  grep -q '^  gpu-a.example.internal.yaml: |' "$WORK/all.yaml" || fail "the ConfigMap lacks gpu-a's config"
  grep -Eq 'name: gpupack-node-configs-[a-z0-9]+$' "$WORK/all.yaml" || fail "the DaemonSet does not mount the generated ConfigMap"
  grep -q 'image: registry.example.com/chat:1.4' "$WORK/all.yaml" || fail "the workload image is not the scenario's"
fi

finish
