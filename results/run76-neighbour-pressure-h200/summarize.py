#!/usr/bin/env python3
"""Summarise a run76/run77-style call's raw folder (its run.tgz's r/) into summary.json: per condition, each
program's requests, mean, p50 and p99 from its client report, and each neighbour's req/s over its requests in
the condition. Usage: summarize.py RAW_DIR CONDITION... > summary.json (conditions in the call's order).
"""
import glob
import json
import os
import re
import statistics
import sys

VICTIMS = ("reporter", "bert", "mobilenet", "resnet50", "wav2vec")


def requests(path):
    try:
        lines = [json.loads(l) for l in open(path) if '"request"' in l]
    except OSError:
        return []
    return lines


def victim(path):
    r = requests(path)
    if not r:
        return None
    v = sorted(x["latency_ms"] for x in r)
    return {"requests": len(v), "mean_ms": round(statistics.mean(v), 4), "p50_ms": round(v[len(v) // 2], 4),
            "p99_ms": round(v[int(0.99 * (len(v) - 1))], 4)}


def neighbour(path, cond):
    r = requests(path)
    t = [x["t"] for x in r]
    kind = re.sub(r"^nb\d+-?", "", os.path.basename(path)[len(cond) + 1:-len(".jsonl")]) or cond
    rate = (len(t) - 1) / (t[-1] - t[0]) if len(t) > 2 else None
    return {"kind": kind, "req_per_s": round(rate, 2) if rate else None}


def main():
    raw, conds = sys.argv[1], sys.argv[2:]
    out = {"gpu": open(os.path.join(raw, "gpu.txt")).read().strip(), "conditions": []}
    for c in conds:
        nbs = sorted(glob.glob(os.path.join(raw, f"{c}-nb*.jsonl")))
        out["conditions"].append({"condition": c, "neighbours": [neighbour(p, c) for p in nbs],
                                  "programs": {v: victim(os.path.join(raw, f"{c}-{v}.jsonl")) for v in VICTIMS
                                               if os.path.exists(os.path.join(raw, f"{c}-{v}.jsonl"))}})
    json.dump(out, sys.stdout, indent=1)
    print()


main()
