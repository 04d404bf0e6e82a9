#!/usr/bin/env python3
"""Fits the performance model's fitted constants on a named set of recorded verify runs.

Reads the runs of a manifest (results/model-runs.json) through `gpupack model replay --format json`,
varies each fitted constant within the range its parameter accepts (the replay JSON's model.parameters)
and keeps the values that give the least objective on the chosen set (--set in-sample by default):

    objective = mean over the workloads of (mean |req/s error| + mean |p99 error|) / 2

where an error is predicted / measured - 1, req/s counts every replica and p99 only the replicas whose tail
is their own (no shared stalls: the tail the model predicts). req/s and p99 weigh the same, and so does
each workload, whatever its number of replicas (resnet18-b1 has ten times the GEMM's).

The search is coordinate descent by compass steps: for each constant in turn, a step up and a step down
(clamped to its range, values kept to 4 significant digits); a step that lowers the objective is taken and
grows by half, one that does not is halved; it stops when every step is under --tolerance of its value or
after --rounds rounds. The objective is piecewise (minima and maxima in the model), so no gradient is used.

Writes a model parameters file (docs/model-parameters.md) with the fitted constants only, each with a
source naming the run set and the objective, and prints the values and the errors of every set before
and after. Python's standard library only (CI has no numpy).

  scripts/fit-model.py --gpupack build/gpupack -o results/model-fit-2026-11-27.json

With --leave-one-workload-out it validates the fit out of sample instead (scripts/model_lowo.py): for each
workload, the constants are fitted on every run of --lowo-sets that does not contain it and its errors are
measured on the runs that do, with those values (docs/model-parameters.md, "Leave one workload out").

  scripts/fit-model.py --leave-one-workload-out -o results/model-lowo-2026-11-27.json \\
      --table results/model-lowo-2026-11-27.txt
"""
import argparse
import datetime
import json
import math
import os
import subprocess
import sys
import tempfile

# The profile model's constants fitted on H100 runs (docs/model-parameters.md, "(fitted, H100)"). Not the
# counts (tail_cap_max_clients), the synthetic calibration (gpupack bench) or the planning defaults.
FITTED = [
    "mps_launch_cost_per_client",
    "dram_queueing",
    "colocated_tail_ratio",
    "colocated_tail_excess",
    "core_wait_ms",
    "steady_kernel_share",
    "burst_free",
    "burst_wait",
]


def fail(message):
    print(f"fit-model.py: {message}", file=sys.stderr)
    sys.exit(2)


def significant(value, digits=4):
    if value == 0:
        return 0.0
    return round(value, digits - 1 - int(math.floor(math.log10(abs(value)))))


class Replay:
    """`gpupack model replay --format json` of one manifest with candidate values, each candidate evaluated once."""

    def __init__(self, args, workdir, manifest=None):
        self.args = args
        self.workdir = workdir
        self.manifest = manifest or args.manifest
        self.cache = {}
        self.calls = 0

    def run(self, values, run_set):
        key = (run_set, tuple(sorted(values.items())))
        if key in self.cache:
            return self.cache[key]
        command = [self.args.gpupack, "model", "replay", self.manifest, "--set", run_set, "--format", "json"]
        if self.args.root:
            command += ["--root", self.args.root]
        if values:
            path = os.path.join(self.workdir, "candidate.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(parameters_file(values, "candidate", {}), f)
            command += ["--model", path]
        self.calls += 1
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            fail(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
        report = json.loads(done.stdout)
        self.cache[key] = report
        return report


def objective(report, run_set):
    """The mean over workloads of (mean |req/s error| + mean stall-free |p99 error|) / 2; None without runs."""
    terms = []
    for s in report["summary"]:
        if s["set"] != run_set:
            continue
        parts = [x for x in (s["req_per_s"]["mean_abs"], s["p99"]["mean_abs"]) if x is not None]
        if parts:
            terms.append(sum(parts) / len(parts))
    return sum(terms) / len(terms) if terms else None


def parameters_file(values, name, sources):
    return {
        "schema": "gpupack-model",
        "version": 1,
        "name": name,
        "parameters": {n: ({"value": v, "source": sources[n]} if n in sources else {"value": v}) for n, v in values.items()},
    }


def bounds(spec):
    lo, hi = spec["min"], spec["max"]
    if not spec["min_inclusive"]:
        lo = lo + max(abs(lo), 1.0) * 1e-6
    return lo, hi


def fit(replay, specs, start, run_set, args, log=print):
    """Compass search on `run_set`; returns the fitted values and the objective there."""
    x = dict(start)
    best = objective(replay.run(x, run_set), run_set)
    if best is None:
        fail(f"{replay.manifest}: no run in the set {run_set}")
    step = {n: (0.25 * abs(v) if v != 0 else 0.1) for n, v in x.items()}
    for n in x:
        if specs[n]["integer"]:
            step[n] = max(1.0, round(step[n]))
    for round_number in range(1, args.rounds + 1):
        for n in x:
            lo, hi = bounds(specs[n])
            tried = []
            for direction in (1, -1):
                v = min(hi, max(lo, x[n] + direction * step[n]))
                v = float(round(v)) if specs[n]["integer"] else significant(v)
                if v == x[n] or not (lo <= v <= hi):
                    continue
                candidate = dict(x, **{n: v})
                tried.append((objective(replay.run(candidate, run_set), run_set), v))
            better = [t for t in tried if t[0] < best - 1e-12]
            if better:
                best, x[n] = min(better)
                step[n] *= 1.5
            else:
                step[n] = max(1.0, step[n] / 2) if specs[n]["integer"] else step[n] / 2
        log(f"round {round_number}: objective {100 * best:.3f}% ({replay.calls} replays)")
        if all(step[n] < args.tolerance * max(abs(x[n]), 1e-3) or specs[n]["integer"] and step[n] <= 1 for n in x):
            break
    return x, best


def print_errors(title, report, sets):
    print(title)
    for run_set in sets:
        value = objective(report, run_set)
        if value is None:
            continue
        print(f"  {run_set}: objective {100 * value:.2f}%")
        for s in report["summary"]:
            if s["set"] != run_set:
                continue
            req, p99 = s["req_per_s"], s["p99"]
            p99_text = "no replica with its own tail"
            if p99["count"]:
                p99_text = (f"p99 mean {100 * p99['mean_abs']:.1f}% worst {100 * p99['worst']:.0f}% "
                            f"within 25% {100 * p99['within_target']:.0f}% of {p99['count']}")
            print(f"    {s['workload']:<12} req/s mean {100 * req['mean_abs']:.1f}% worst {100 * req['worst']:.0f}% "
                  f"within 15% {100 * req['within_target']:.0f}% of {req['count']}; {p99_text}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpupack", default="build/gpupack", help="the gpupack binary (default build/gpupack)")
    parser.add_argument("--manifest", default="results/model-runs.json", help="manifest of recorded runs")
    parser.add_argument("--root", default="", help="folder the manifest's paths are relative to (gpupack's default)")
    parser.add_argument("--set", default="in-sample", choices=["in-sample", "held-out", "corpus", "all"],
                        help="runs to fit on")
    parser.add_argument("--parameters", default=",".join(FITTED), help="comma-separated names to fit")
    parser.add_argument("--start", default="", help="parameters file to start from (default: the built-in values)")
    parser.add_argument("--rounds", type=int, default=40, help="most rounds over every parameter (default 40)")
    parser.add_argument("--tolerance", type=float, default=0.01, help="stop when every step is under this share")
    parser.add_argument("--leave-one-workload-out", action="store_true",
                        help="for each workload: fit on the runs without it, replay the runs with it (model_lowo.py)")
    parser.add_argument("--lowo-sets", default="in-sample,held-out,corpus",
                        help="sets whose runs the leave-one-workload-out fits on and predicts (default all three)")
    parser.add_argument("--workloads", default="", help="leave out only these (comma-separated; default every one)")
    parser.add_argument("--table", default="", help="with --leave-one-workload-out: also write the table here")
    parser.add_argument("-o", "--output", required=True,
                        help="the parameters file to write (with --leave-one-workload-out: the result JSON)")
    args = parser.parse_args()
    if args.rounds < 1:
        fail("--rounds must be at least 1")
    if args.leave_one_workload_out:
        import model_lowo  # beside this script
        model_lowo.main(args, Replay, fit, fail)
        return

    with tempfile.TemporaryDirectory(prefix="fit-model-") as workdir:
        replay = Replay(args, workdir)
        start_values = {}
        if args.start:
            with open(args.start, encoding="utf-8") as f:
                start_file = json.load(f)
            start_values = {n: p["value"] for n, p in start_file.get("parameters", {}).items()}
        before = replay.run(start_values, "all")
        specs = {p["name"]: p for p in before["model"]["parameters"]}
        names = [n for n in args.parameters.split(",") if n]
        for n in names:
            if n not in specs:
                fail(f"--parameters: unknown parameter '{n}'; accepted: {', '.join(specs)}")
            if isinstance(specs[n]["value"], list):
                fail(f"--parameters: {n} is a curve; only single numbers are fitted")
        start = {n: specs[n]["value"] for n in names}
        fitted, best = fit(replay, specs, start, args.set, args)
        after = replay.run(dict(start_values, **fitted), "all")

    runs = sum(1 for r in before["runs"] if args.set in ("all", r["set"]))
    source = (f"fitted by scripts/fit-model.py on the {args.set} runs of {args.manifest} ({runs} runs, "
              f"{datetime.date.today().isoformat()}): coordinate descent within the accepted range minimising the "
              f"mean over workloads of (mean |req/s error| + mean |stall-free p99 error|) / 2, "
              f"{100 * best:.2f}% there; from {{start}}")
    sources = {n: source.replace("{start}", f"{start[n]:g}") for n in names}
    document = parameters_file(fitted, f"fitted on the {args.set} runs of {args.manifest}", sources)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(json.dumps(document, indent=2) + "\n")

    print(f"\n{'parameter':<28} {'start':>8} {'fitted':>8}  range")
    for n in names:
        print(f"{n:<28} {start[n]:>8g} {fitted[n]:>8g}  {specs[n]['min']:g} to {specs[n]['max']:g}")
    sets = ["in-sample", "held-out"]
    print_errors("\nbefore (start values):", before, sets)
    print_errors("after (fitted values):", after, sets)
    print(f"\nwrote {args.output} ({replay.calls} replays)")


if __name__ == "__main__":
    main()
