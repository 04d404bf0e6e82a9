#!/usr/bin/env python3
"""Summarise tests/e2e-gpu/launch_pressure_mixes.sh's raw folder into the summary.json form of
results/run76-neighbour-pressure-h200 and its kin: per condition (a mix of neighbours, or none), each program's
requests, mean, p50 and p99 from its client report, and each neighbour's req/s over its own requests.

RAW holds conditions.txt (one "INDEX MIX" line a condition, MIX "none" or kinds joined by "+"), and per
condition cINDEX-nbJ-KIND.jsonl (the neighbours' reports) and cINDEX-PROGRAM.jsonl (the programs').
Usage: summarize-mixes.py RAW > summary.json
"""
import glob
import json
import os
import re
import statistics
import sys


def requests(path):
    try:
        return [json.loads(line) for line in open(path) if '"request"' in line]
    except (OSError, ValueError):
        return []


def program(path):
    v = sorted(r["latency_ms"] for r in requests(path))
    if not v:
        return None
    return {"requests": len(v), "mean_ms": round(statistics.mean(v), 4), "p50_ms": round(v[len(v) // 2], 4),
            "p99_ms": round(v[int(0.99 * (len(v) - 1))], 4)}


def neighbour(path):
    t = [r["t"] for r in requests(path)]
    kind = re.sub(r"^c\d+-nb\d+-", "", os.path.basename(path))[: -len(".jsonl")]
    return {"kind": kind, "req_per_s": round((len(t) - 1) / (t[-1] - t[0]), 2) if len(t) > 2 else None}


def main():
    raw = sys.argv[1]
    gpu = open(os.path.join(raw, "gpu.txt")).read().strip() if os.path.exists(os.path.join(raw, "gpu.txt")) else ""
    out = {"gpu": gpu, "conditions": []}
    for line in open(os.path.join(raw, "conditions.txt")):
        index, mix = line.split()
        prefix = os.path.join(raw, f"c{index}-")
        programs = {}
        for path in sorted(glob.glob(prefix + "*.jsonl")):
            name = path[len(prefix): -len(".jsonl")]
            if not name.startswith("nb"):
                programs[name] = program(path)
        out["conditions"].append({"condition": mix, "neighbours": [neighbour(p) for p in sorted(glob.glob(prefix + "nb*.jsonl"))],
                                  "programs": programs})
    json.dump(out, sys.stdout, indent=1)
    print()


main()
