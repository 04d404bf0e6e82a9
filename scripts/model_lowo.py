"""Leave-one-workload-out validation of the model's fitted constants (scripts/fit-model.py --leave-one-workload-out).

For each workload W of the runs of the chosen sets (--lowo-sets, by default in-sample, held-out and corpus of
results/model-runs.json): the fitted constants are fitted again, as fit-model.py fits them, on every run of
those sets that does not contain W; then the runs that contain W are replayed with those values and W's
errors there are its out-of-sample errors. The same runs replayed with the built-in values stand beside them
(for the corpus programs these are out of sample too: no constant was fitted on them; for resnet18-b1, mlp-b8
and the GEMM they are in sample).

Errors are predicted / measured - 1 (gpupack model replay). Per workload: req/s over every replica (target
15%); p99 over every replica, the tail verify measured, shared stalls or not (target 25%), and over the
replicas whose tail is their own (what the fit's objective counts); the share of replicas within both
targets (issue 36's measure, which counts every replica); the worst error with its sign.

Writes one JSON document (schema gpupack-lowo) and prints a table (also to --table). Python's standard
library only.
"""
import datetime
import json
import os
import subprocess
import tempfile
import time

P99_TARGET = 0.25
REQ_TARGET = 0.15


def default_root(manifest):
    """gpupack's default: the parent of the manifest's folder."""
    return os.path.dirname(os.path.dirname(os.path.abspath(manifest))) or "."


def stats(errors, target):
    if not errors:
        return {"count": 0, "mean_abs": None, "worst": None, "within_target": None}
    worst = max(errors, key=abs)
    return {"count": len(errors), "mean_abs": sum(abs(e) for e in errors) / len(errors), "worst": worst,
            "within_target": sum(1 for e in errors if abs(e) <= target) / len(errors)}


def workload_errors(report, workload):
    """W's replicas over every run of a replay report: their errors, in the report's order."""
    replicas = []
    for run in report["runs"]:
        for w in run["workloads"]:
            if w["workload"] == workload:
                replicas.extend(w["replicas"])
    req = [r["req_per_s_error"] for r in replicas]
    p99 = [r["p99_error"] for r in replicas]
    own = [r["p99_error"] for r in replicas if r["stall_free"]]
    both = sum(1 for r in replicas if abs(r["req_per_s_error"]) <= REQ_TARGET and abs(r["p99_error"]) <= P99_TARGET)
    return {"replicas": len(replicas), "stalled": len(replicas) - len(own), "req_per_s": stats(req, REQ_TARGET),
            "p99": stats(p99, P99_TARGET), "p99_own_tail": stats(own, P99_TARGET),
            "within_both": both, "within_both_share": both / len(replicas) if replicas else None}


def write_manifest(path, manifest, runs):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(dict(manifest, runs=runs), f)


def pct(value, signed=False):
    if value is None:
        return "-"
    return f"{100 * value:+.0f}%" if signed else f"{100 * value:.0f}%"


def table(results):
    lines = [
        "Leave one workload out: each workload's errors (predicted / measured - 1) on the runs that contain it, "
        "with the constants fitted on the runs that do not (LOWO) and with the built-in values.",
        "req/s: mean |error|, worst, share within 15%; p99: every replica's, the same against 25%; "
        "both: replicas within both targets.",
        "",
        f"{'workload':<20}{'runs':>5}{'repl':>6}  {'values':<9}{'req/s mean':>11}{'worst':>7}{'<=15%':>7}"
        f"{'p99 mean':>10}{'worst':>7}{'<=25%':>7}{'both':>10}",
    ]
    for r in results:
        for label, e in (("built-in", r["built_in"]), ("LOWO", r["out_of_sample"])):
            lines.append(
                f"{r['workload'] if label == 'built-in' else '':<20}"
                f"{len(r['runs']) if label == 'built-in' else '':>5}{r['replicas'] if label == 'built-in' else '':>6}  "
                f"{label:<9}{pct(e['req_per_s']['mean_abs']):>11}{pct(e['req_per_s']['worst'], True):>7}"
                f"{pct(e['req_per_s']['within_target']):>7}{pct(e['p99']['mean_abs']):>10}"
                f"{pct(e['p99']['worst'], True):>7}{pct(e['p99']['within_target']):>7}"
                f"{e['within_both']:>5} of {r['replicas']:<2}")
    return "\n".join(lines)


def main(args, Replay, fit, fail):
    """fit-model.py's Replay class, fit function and fail (its one error line, exit 2) do the work."""
    started = time.monotonic()
    with open(args.manifest, encoding="utf-8") as f:
        manifest = json.load(f)
    sets = [s for s in args.lowo_sets.split(",") if s]
    for s in sets:
        if s not in ("in-sample", "held-out", "corpus"):
            fail(f"--lowo-sets: unknown set '{s}'; accepted: in-sample, held-out, corpus")
    runs = [r for r in manifest["runs"] if r["set"] in sets]
    if not runs:
        fail(f"{args.manifest}: no run in the sets {', '.join(sets)}")
    # The subset manifests below live in a temporary folder: their paths stay relative to the repository root.
    args.root = os.path.abspath(args.root or default_root(args.manifest))
    with tempfile.TemporaryDirectory(prefix="model-lowo-") as workdir:
        every = os.path.join(workdir, "every.json")
        write_manifest(every, manifest, runs)
        base = Replay(args, workdir, every).run({}, "all")
        specs = {p["name"]: p for p in base["model"]["parameters"]}
        names = [n for n in args.parameters.split(",") if n]
        for n in names:
            if n not in specs or isinstance(specs[n]["value"], list):
                fail(f"--parameters: '{n}' is not a single-number parameter; accepted: {', '.join(specs)}")
        start = {n: specs[n]["value"] for n in names}
        contains = {r["dir"]: {w["workload"] for w in r["workloads"]} for r in base["runs"]}
        workloads = sorted(set().union(*contains.values()))
        if args.workloads:
            wanted = [w for w in args.workloads.split(",") if w]
            for w in wanted:
                if w not in workloads:
                    fail(f"--workloads: no run of {', '.join(sets)} contains '{w}'; they contain: {', '.join(workloads)}")
            workloads = wanted
        results = []
        for w in workloads:
            held = [r for r in runs if w in contains[r["dir"]]]
            train = [r for r in runs if w not in contains[r["dir"]]]
            if not train:
                fail(f"every run of {', '.join(sets)} contains {w}: nothing to fit on without it")
            train_path, test_path = os.path.join(workdir, "train.json"), os.path.join(workdir, "test.json")
            write_manifest(train_path, manifest, train)
            write_manifest(test_path, manifest, held)
            print(f"{w}: fitting on {len(train)} runs without it, predicting {len(held)} with it", flush=True)
            fitted, objective = fit(Replay(args, workdir, train_path), specs, start, "all", args, log=lambda _: None)
            test = Replay(args, workdir, test_path)
            results.append({
                "workload": w,
                "runs": [r["dir"] for r in held],
                "sets": sorted({r["set"] for r in held}),
                "replicas": workload_errors(base, w)["replicas"],
                "fitted_on": {"runs": len(train), "workloads": sorted(set().union(*(contains[r["dir"]] for r in train))),
                              "objective": objective},
                "parameters": fitted,
                "out_of_sample": workload_errors(test.run(fitted, "all"), w),
                "built_in": workload_errors(test.run({}, "all"), w),
            })
    elapsed = time.monotonic() - started
    commit = subprocess.run(["git", "-C", args.root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            check=False).stdout.strip()
    document = {
        "schema": "gpupack-lowo",
        "version": 1,
        "date": datetime.date.today().isoformat(),
        "commit": commit or None,
        "command": (f"scripts/fit-model.py --leave-one-workload-out --manifest {args.manifest} --lowo-sets "
                    f"{','.join(sets)} --rounds {args.rounds} --tolerance {args.tolerance} -o {args.output}"
                    + (f" --table {args.table}" if args.table else "")),
        "manifest": args.manifest,
        "sets": sets,
        "fitted_parameters": names,
        "start": start,
        "objective": "mean over workloads of (mean |req/s error| + mean |own-tail p99 error|) / 2 (fit-model.py)",
        "targets": {"p99": P99_TARGET, "req_per_s": REQ_TARGET},
        "seconds": round(elapsed, 1),
        "workloads": results,
    }
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(json.dumps(document, indent=1) + "\n")
    text = table(results) + f"\n\n{len(workloads)} workloads, {elapsed:.0f} s; commit {commit or '?'}\n"
    print("\n" + text, end="")
    if args.table:
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"wrote {args.output}" + (f" and {args.table}" if args.table else ""))
