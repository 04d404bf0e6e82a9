#!/usr/bin/env python3
"""Per phase of a call (PHASES: lines `name start_epoch end_epoch`), from cpu_sampler.py's samples: the samples
where the most client processes were busy (python3 processes using more than half a core: the mixed window),
and in those the MPS server's cores (median, high), the client processes' cores and the busy processes of all
kinds (more than half a core each). Usage: cpu_summary.py SAMPLES.tsv PHASES"""
import statistics, sys
from collections import defaultdict

rows = defaultdict(list)
t0 = 0.0
for line in open(sys.argv[1]):
    if line.startswith("# t0_epoch"):
        t0 = float(line.split()[2])
        continue
    t, pid, name, cores = line.split("\t")
    rows[float(t) + t0].append((int(pid), name, float(cores)))

print(f"{'phase':28} {'samples':>7} {'clients busy':>12} {'client cores':>12} {'MPS server cores':>17} "
      f"{'busy (all)':>10}")
for line in open(sys.argv[2]):
    name, start, end = line.split()
    samples = [v for t, v in rows.items() if float(start) <= t <= float(end)]
    if not samples:
        print(f"{name:28} no samples")
        continue
    busy_clients = [sum(1 for _, n, c in s if n.startswith("python") and c > 0.5) for s in samples]
    top = max(busy_clients)
    window = [s for s, b in zip(samples, busy_clients) if b >= top - 1 and top > 0]
    server = [sum(c for _, n, c in s if n == "nvidia-cuda-mps-server") for s in window]
    clients = [sum(c for _, n, c in s if n.startswith("python")) for s in window]
    busy = [sum(1 for _, _, c in s if c > 0.5) for s in window]
    print(f"{name:28} {len(window):7d} {top:12d} {statistics.median(clients):12.2f} "
          f"{statistics.median(server):8.2f} ({max(server):.2f}) {statistics.median(busy):10.1f}")
