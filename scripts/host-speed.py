#!/usr/bin/env python3
"""How far each program's rate alone follows its host's speed, from the recorded profiles.

Each baseline run of `gpupack profile` (since run67) also times a fixed piece of CPU work on the host
(`host_core_work.median_ms`): the same work everywhere, so its time is the host's speed. Over every such run
of one program (the corpus client it ran) and baseline (plain, or under MPS at 100%), on however many
machines, this fits log(req/s) = a + slope x log(host work ms) by least squares and prints the slope and the
correlation. A slope of -1: the program's rate is its host's (twice the work time, half the req/s); 0: the
host does not set it (its work is on the GPU). It says how far a launch-bound program's rate went with its
host's timing over the recorded runs; it is no correction for a plan: rebasing on it failed on a GPU (run99,
docs/decisions.md, "The host's cores, the MPS server and a host-speed rebase").

A profile copied into several run directories counts once (the same runs); a row needs three runs or more
with the timing. Usage:

  scripts/host-speed.py results [--format json]

Exit 2 with one line on bad arguments or no program with three timed runs under the directories.
"""
import json
import math
import statistics
import sys

from recorded_profiles import baseline_blocks, parse_args, profiles, program

MIN_RUNS = 3


def timed_runs(block):
    """(host work ms, req/s) of each run that has both."""
    out = []
    runs = block.get("runs")
    for r in runs if isinstance(runs, list) else []:
        work = r.get("host_core_work") if isinstance(r, dict) else None
        ms = work.get("median_ms") if isinstance(work, dict) else None
        req = r.get("req_per_s")
        if isinstance(ms, (int, float)) and ms > 0 and isinstance(req, (int, float)) and req > 0:
            out.append((float(ms), float(req)))
    return out


def fit(points):
    """Least-squares slope of log(req/s) on log(work ms) (None where the host's time is flat), and their
    correlation (None where either is flat)."""
    xs = [math.log(ms) for ms, _ in points]
    ys = [math.log(req) for _, req in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    flat = 1e-12  # a figure that did not move (rounding leaves its sum of squares a hair above 0)
    slope = sxy / sxx if sxx > flat else None
    corr = sxy / math.sqrt(sxx * syy) if sxx > flat and syy > flat else None
    return slope, corr


def collect(roots):
    seen = set()
    table = {}
    for profile in profiles(roots):
        for setting, block in baseline_blocks(profile):
            points = timed_runs(block)
            key = (program(profile), setting, tuple(points))
            if not points or key in seen:
                continue
            seen.add(key)
            row = table.setdefault(key[:2], {"profiles": 0, "points": []})
            row["profiles"] += 1
            row["points"].extend(points)
    rows = []
    for (workload, setting), row in sorted(table.items()):
        points = row["points"]
        if len(points) < MIN_RUNS:
            continue
        slope, corr = fit(points)
        rows.append({"workload": workload, "setting": setting, "profiles": row["profiles"], "runs": len(points),
                     "work_ms_low": min(ms for ms, _ in points), "work_ms_high": max(ms for ms, _ in points),
                     "req_per_s_low": min(r for _, r in points), "req_per_s_high": max(r for _, r in points),
                     "slope": slope, "correlation": corr})
    return rows


def number(value, digits=2):
    return "-" if value is None else f"{value:+.{digits}f}"


def main():
    args = parse_args("host-speed", "How far each program's rate alone follows its host's speed.")
    rows = collect(args.roots)
    if not rows:
        print(f"host-speed: no program with {MIN_RUNS} or more baseline runs that timed the host's work under "
              + ", ".join(args.roots), file=sys.stderr)
        sys.exit(2)
    if args.format == "json":
        json.dump({"host_speed_version": 1, "min_runs": MIN_RUNS, "rows": rows}, sys.stdout, indent=1)
        print()
        return
    print(f"{'WORKLOAD':<20} {'BASELINE':<8} {'PROFILES':>8} {'RUNS':>5} {'HOST WORK MS':>13} {'REQ/S':>10} "
          f"{'SLOPE':>6} {'CORR':>6}")
    for r in rows:
        print(f"{r['workload']:<20} {r['setting']:<8} {r['profiles']:>8} {r['runs']:>5} "
              f"{r['work_ms_low']:>6.2f}-{r['work_ms_high']:<6.2f} {r['req_per_s_low']:>4.0f}-{r['req_per_s_high']:<5.0f} "
              f"{number(r['slope']):>6} {number(r['correlation']):>6}")
    print("Slope: log(req/s) against log(the host's fixed work time) over the runs; -1: the rate is the host's, "
          "0: the host does not set it. Corr: their correlation.")


if __name__ == "__main__":
    main()
