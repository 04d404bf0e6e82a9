#!/usr/bin/env python3
"""How close a perfect model could come to issue 36's accuracy targets on the machines the profiles ran on.

Each profile's alone baseline (`gpupack profile --baseline-runs N`, N >= 3) is N fresh runs of the same
program alone. Take one run as the "measured" replica and the median of the others as the "prediction": a
model with no error beyond the machine's own run-to-run noise predicts exactly that. The share of runs within
the targets (req/s within +-15%, p99 within +-25%, both) is the ceiling that noise alone leaves. Alone is the
quietest a program runs; beside neighbours the noise is not smaller.

Profiles are found under the given directories (every *.json with a "baseline" object); a profile copied into
several run directories counts once (the same runs). Rows are per program (the corpus client it ran, else the
profile's name), GPU model and baseline (plain, or under MPS at 100%). Usage:

  scripts/noise-ceiling.py results [--format json]

Exit 2 with one line on bad arguments or no profile with a baseline of three runs or more.
"""
import json
import statistics
import sys

from recorded_profiles import baseline_blocks, gpu, parse_args, profiles, program

REQ_TARGET = 0.15
P99_TARGET = 0.25


def baselines(profile):
    """The plain and the MPS 100% baselines with at least three runs, as (setting, runs)."""
    out = []
    for setting, block in baseline_blocks(profile):
        runs = block.get("runs")
        if not isinstance(runs, list) or len(runs) < 3:
            continue
        figures = []
        for r in runs:
            req, p99 = r.get("req_per_s"), r.get("p99_ms")
            if not isinstance(req, (int, float)) or req <= 0:
                figures = []
                break
            figures.append((float(req), float(p99) if isinstance(p99, (int, float)) and p99 > 0 else None))
        if figures:
            out.append((setting, figures))
    return out


def within(measured, predicted, target):
    return predicted is not None and measured is not None and abs(predicted / measured - 1) <= target


def leave_one_out(figures):
    """Per run: (req/s within, p99 within or None when not reported) against the median of the others."""
    out = []
    for i, (req, p99) in enumerate(figures):
        others = figures[:i] + figures[i + 1:]
        req_pred = statistics.median(r for r, _ in others)
        p99s = [p for _, p in others if p is not None]
        p99_pred = statistics.median(p99s) if p99s and p99 is not None else None
        out.append((within(req, req_pred, REQ_TARGET), within(p99, p99_pred, P99_TARGET) if p99_pred else None))
    return out


def collect(roots):
    seen = set()
    table = {}
    for profile in profiles(roots):
        for setting, figures in baselines(profile):
            key = (program(profile), gpu(profile), setting, tuple(figures))
            if key in seen:
                continue
            seen.add(key)
            row = table.setdefault(key[:3], {"profiles": 0, "runs": 0, "req": 0, "p99": 0, "p99_runs": 0, "both": 0})
            row["profiles"] += 1
            for req_ok, p99_ok in leave_one_out(figures):
                row["runs"] += 1
                row["req"] += req_ok
                if p99_ok is not None:
                    row["p99_runs"] += 1
                    row["p99"] += p99_ok
                    row["both"] += req_ok and p99_ok
    return table


def main():
    args = parse_args("noise-ceiling", "The accuracy ceiling that the profiles' own run-to-run noise leaves.")
    table = collect(args.roots)
    if not table:
        print("noise-ceiling: no profile with a baseline of three runs or more under " + ", ".join(args.roots), file=sys.stderr)
        sys.exit(2)
    rows = [{"workload": w, "gpu": g, "setting": s, **v} for (w, g, s), v in sorted(table.items())]
    total = {k: sum(r[k] for r in rows) for k in ("profiles", "runs", "req", "p99", "p99_runs", "both")}
    if args.format == "json":
        json.dump({"noise_ceiling_version": 1, "req_target": REQ_TARGET, "p99_target": P99_TARGET, "rows": rows, "total": total},
                  sys.stdout, indent=1)
        print()
        return
    print(f"{'WORKLOAD':<20} {'GPU':<16} {'BASELINE':<8} {'PROFILES':>8} {'RUNS':>5} {'REQ/S 15%':>10} {'P99 25%':>8} {'BOTH':>6}")
    for r in rows + [{"workload": "all", "gpu": "", "setting": "", **total}]:
        print(f"{r['workload']:<20} {r['gpu']:<16} {r['setting']:<8} {r['profiles']:>8} {r['runs']:>5} {r['req']:>10} "
              f"{str(r['p99']) + '/' + str(r['p99_runs']):>8} {r['both']:>6}")
    print(f"Each run alone against the median of its profile's other runs: a model with no error beyond the runs' "
          f"own noise puts {total['both']} of {total['p99_runs']} within both targets "
          f"({100 * total['both'] / max(1, total['p99_runs']):.0f}%).")


if __name__ == "__main__":
    main()
