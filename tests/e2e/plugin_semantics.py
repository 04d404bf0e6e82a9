#!/usr/bin/env python3
"""What NVIDIA's device plugin will do with rendered configs, against the plan (issue 17).

Usage: plugin_semantics.py PLAN.json RENDERED_DIR. For every config that node-labels.sh gives a node:
the replicas per resource must be the clients of the node's most shared device of that resource (the
plugin advertises them on every device; the others keep free replicas), and under MPS the limits the plugin derives for each replica (100/replicas %
of the threads, memory/replicas MiB: NVIDIA/k8s-device-plugin cmd/mps-control-daemon/mps/daemon.go)
must equal each planned client's. The node's nvidia.com/gpu.count guard must name its planned GPUs.
Prints "N plugin configs checked"; exits 1 with one line per mismatch."""
import json
import re
import sys

import yaml

MIB = 1 << 20
plan = json.load(open(sys.argv[1]))
out = sys.argv[2]
errors = []
try:
    cm = yaml.safe_load(open(out + "/k8s-device-plugin/configmap.yaml"))
    script = open(out + "/k8s-device-plugin/node-labels.sh").read()
except FileNotFoundError:
    print("0 plugin configs checked")
    sys.exit(0)
configs = {name: yaml.safe_load(text) for name, text in cm["data"].items()}
var_node = dict(re.findall(r"^(GPUPACK_NODE_\w+)=\$\{\w+:-'([^']+)'\}", script, re.M))
node_config = {var_node[v]: name for v, name in
               re.findall(r"kubectl label node \"\$(\w+)\" 'nvidia.com/device-plugin.config=([^']+)'", script)}
node_guard = {var_node[v]: int(n) for v, n in
              re.findall(r"require_label \"\$(\w+)\" '[^']*' '(\d+)' 'nvidia.com/gpu.count'", script)}

clients = {}
for p in plan["placements"]:
    clients.setdefault((p["gpu"], p["slice"]), []).append(p)

checked = 0
for node, name in node_config.items():
    cfg = configs[name]
    gpus = [g for g in plan["gpus"] if g["node"] == node]
    if node_guard.get(node) != len(gpus):
        errors.append(f"{node}: nvidia.com/gpu.count guard {node_guard.get(node)}, planned GPUs {len(gpus)}")
    sharing = cfg.get("sharing") or {}
    strategy = "mps" if "mps" in sharing else "timeSlicing" if "timeSlicing" in sharing else None
    replicas = {r["name"]: r["replicas"] for r in (sharing[strategy]["resources"] if strategy else [])}
    uses_mig = any(g["mig"] for g in gpus)
    if cfg["flags"]["migStrategy"] != ("mixed" if uses_mig else "none"):
        errors.append(f"{node}: migStrategy {cfg['flags']['migStrategy']} for a node {'with' if uses_mig else 'without'} MIG")
    devices = {}
    for g in gpus:
        for s in g["slices"]:
            res = "nvidia.com/mig-" + s["profile"].replace("+", ".") if s["profile"] else "nvidia.com/gpu"
            devices.setdefault(res, []).append(s | {"gpu": g["id"]})
    for res, devs in devices.items():
        r = replicas.get(res, 1)
        # A streams slice is one process, whatever its replicas.
        planned = sum(1 if s["sharing"] == "streams" else max(1, len(clients.get((s["gpu"], s["id"]), []))) for s in devs)
        # Every device gets r replicas: r must be what the most shared device holds (devices planned for fewer
        # keep free replicas, with the same limits, which README.txt names).
        most = max(1 if s["sharing"] == "streams" else max(1, len(clients.get((s["gpu"], s["id"]), []))) for s in devs)
        if r != most or r * len(devs) < planned:
            errors.append(f"{node}: {res}: the plugin advertises {r} x {len(devs)} = {r * len(devs)}, the plan has {planned}")
        if strategy != "mps" or r < 2:
            continue
        for s in devs:
            pct, mib = 100 // r, s["memory_bytes"] // r // MIB
            for c in clients.get((s["gpu"], s["id"]), []):
                want = (c["mps_active_thread_percentage"], -(-c["memory_limit_bytes"] // MIB))
                if want != (pct, mib):
                    errors.append(f"{node}: {s['gpu']} {c['workload']}-{c['replica']}: plugin gives {pct}% and {mib}M, plan {want[0]}% and {want[1]}M")
    checked += 1
for e in errors:
    print(e, file=sys.stderr)
print(f"{checked} plugin configs checked")
sys.exit(1 if errors else 0)
