#!/usr/bin/env python3
"""How the launch pressures of several neighbours add up (issue 36; docs/decisions.md, "What a neighbour's
blocks cost a launch-bound program, measured from the neighbour's side").

Each program's launch pressure P (the reporter's request growth beside one copy, ms) and SM activity u come
from its profile (`gpupack profile --sweep`: launch_pressure, activity.sm_active). A mix's pressure R, the
reporter's growth beside all of them at once, is measured by hand (results/run77-mix-pressure-h200's
call77.sh and summary.json). The form tried: R = sum_i P_i * (1 + b * sum_{j != i} u_j), each neighbour's
blocks kept longer by the others' SM activity; b = 0 is plain addition. b is fitted on the --fit summaries
(least squares on log R, mixes whose R is at least 0.05 ms) and the form is then checked on the --check ones
without refitting. Prints a table per set and the fitted b.

Usage: fit-launch-pressure.py --profiles DIR --fit S.json [S.json ...] [--check S.json ...] [--b B]
"""
import argparse
import json
import math
import os

# The corpus programs' profile files (run78's names) by the kind names the calls use.
PROFILES = {"bert": "bert_base_b4", "mobilenet": "mobilenet_v3_b8", "resnet50": "resnet50_b32",
            "dlrm": "dlrm_b4096", "wav2vec": "wav2vec_b8"}
MIN_MS = 0.05  # below this a mix's growth is within the reporter's noise (its "none" runs moved 0.01 ms)
VICTIMS = ("bert", "mobilenet", "resnet50", "wav2vec")


def load_profiles(folder):
    out = {}
    for kind, name in PROFILES.items():
        path = os.path.join(folder, name + ".json")
        if not os.path.exists(path):
            continue
        p = json.load(open(path))
        cells = {c["k"]: c for c in p["launch_pressure"]["cells"]}
        alone, beside = (1000.0 / cells[k]["neighbour"]["req_per_s"] for k in (0, 1))
        out[kind] = {"P": beside - alone, "u": p["activity"]["sm_active"]}
    return out


SHORT = {file: kind for kind, file in PROFILES.items()}  # tests/e2e-gpu/launch_pressure_mixes.sh's names


def short(name):
    if name in SHORT:
        return SHORT[name]
    return name[:-1] if name[-1].isdigit() and name[:-1] in PROFILES else name  # run76's "dlrm3"


def mixes(path):
    s = json.load(open(path))
    conds = s["conditions"]
    for c in conds:
        c["programs"] = {short(k): v for k, v in c["programs"].items()}
    base = next(c for c in conds if c["condition"] == "none")["programs"]
    for c in conds:
        kinds = [short(n["kind"]) for n in c["neighbours"]]
        if not kinds or any(k not in PROFILES for k in kinds):
            continue  # no neighbour, or one that is not a corpus program (the triad, FMA kernels)
        growth = {v: c["programs"][v]["mean_ms"] - base[v]["mean_ms"]
                  for v in VICTIMS if c["programs"].get(v) and base.get(v)}
        yield os.path.basename(os.path.dirname(path)) + ":" + c["condition"], kinds, \
            c["programs"]["reporter"]["mean_ms"] - base["reporter"]["mean_ms"], growth


def predict(kinds, prof, b):
    total = 0.0
    for i, k in enumerate(kinds):
        others = sum(prof[j]["u"] for n, j in enumerate(kinds) if n != i)
        total += prof[k]["P"] * (1 + b * others)
    return total


def table(rows, prof, b, title):
    print(f"\n{title} (b = {b:.2f}); error = predicted / measured - 1")
    print(f"{'mix':34} {'n':>2} {'R ms':>7} {'added':>7} {'err':>6} {'form':>7} {'err':>6}   victims' growth / R")
    errs = []
    for name, kinds, r, growth in rows:
        add, form = predict(kinds, prof, 0), predict(kinds, prof, b)
        judged = r >= MIN_MS
        e = form / r - 1 if judged else float("nan")
        if judged and len(kinds) > 1:
            errs.append(e)
        vic = " ".join(f"{v}:{g / r:.1f}" for v, g in growth.items()) if judged else "-"
        print(f"{name:34} {len(kinds):2} {r:7.3f} {add:7.3f} {add / r - 1 if judged else float('nan'):+6.0%} {form:7.3f} {e:+6.0%}   {vic}")
    if errs:
        a = sorted(abs(x) for x in errs)
        median = (a[(len(a) - 1) // 2] + a[len(a) // 2]) / 2
        print(f"mixes of 2 or more: {len(errs)}, |error| median {median:.0%}, "
              f"worst {max(errs, key=abs):+.0%}")


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--profiles", required=True)
    a.add_argument("--fit", nargs="+", required=True)
    a.add_argument("--check", nargs="*", default=[])
    a.add_argument("--b", type=float, help="use this b instead of fitting it")
    args = a.parse_args()
    prof = load_profiles(args.profiles)
    print("profiles: " + ", ".join(f"{k} P {v['P']:.3f} ms, u {v['u']:.2f}" for k, v in prof.items()))
    fit = [m for f in args.fit for m in mixes(f)]
    check = [m for f in args.check for m in mixes(f)]
    b = args.b
    if b is None:
        judged = [(k, r) for _, k, r, _ in fit if r >= MIN_MS and len(k) > 1]
        b = min((i / 100 for i in range(301)),
                key=lambda x: sum((math.log(predict(k, prof, x)) - math.log(r)) ** 2 for k, r in judged))
    table(fit, prof, b, "fitted on")
    if check:
        table(check, prof, b, "checked on (not fitted)")
    print(f"\nb = {b:.2f}")


main()
