#!/usr/bin/env python3
"""Copies the recorded runs of a replay manifest (results/model-runs.json) to another folder with the
compute-neighbour cells of newer profiles grafted into their profiles, so that `gpupack model replay --root`
predicts the old runs as if their profiles had measured the program beside a compute-bound neighbour.

Why: the wait for SMs (model/saturation_wait.hpp) is read from a profile's cell beside a neighbour that draws
no DRAM where it has one, and the recorded runs' profiles were measured before that cell existed. The cell is
carried as a ratio: its req/s over the program's alone in the profile it came from, times the program's alone
in the profile it goes to (the alone the model compares a neighbour's cell with: the co-location grid's one
copy under MPS, else the MPS baseline, else the profile's req/s); latencies likewise with the p99 alone. Only
profiles measured on the same GPU model as the cell receive it unless --any-gpu.

  python3 scripts/graft-compute-cells.py --cells results/run80-fma-cells-h200/profiles \
      --manifest results/model-runs.json -o /tmp/graft
  gpupack model replay /tmp/graft/results/model-runs.json --set corpus
"""
import argparse
import copy
import json
import os
import shutil
import sys


def usable_alone(cell):
    return (cell.get("mode") == "mps" and cell.get("k") == 1 and not cell.get("with_neighbour")
            and not cell.get("error") and cell.get("aggregate_req_per_s"))


def alone(profile):
    """(req/s, p99 ms) alone as the planner compares a neighbour's cell with (cli/profile_model_inputs.cpp)."""
    grid = profile.get("colocation") or {}
    for cell in grid.get("cells", []):
        if usable_alone(cell):
            return cell["aggregate_req_per_s"], cell.get("worst_p99_ms")
    base = (profile.get("baseline") or {}).get("mps") or {}
    if base.get("req_per_s"):
        return base["req_per_s"], base.get("p99_ms")
    req = profile.get("requests") or {}
    return req.get("req_per_s"), req.get("p99_ms")


def gpu_model(profile):
    return (profile.get("device") or {}).get("model")


def scaled_grid(grid, req_scale, lat_scale):
    out = copy.deepcopy(grid)
    for cell in out.get("cells", []):
        if cell.get("k", 0) < 1:
            continue  # the neighbour alone: its own figures
        if cell.get("aggregate_req_per_s") is not None:
            cell["aggregate_req_per_s"] *= req_scale
        for key in ("median_p50_ms", "median_p99_ms", "worst_p50_ms", "worst_p99_ms"):
            if cell.get(key) is not None:
                cell[key] *= lat_scale
        for c in cell.get("copies", []):
            if c.get("req_per_s") is not None:
                c["req_per_s"] *= req_scale
            for key in ("p50_ms", "p99_ms"):
                if c.get(key) is not None:
                    c[key] *= lat_scale
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", required=True, help="folder of profiles (<workload>.json) with compute_neighbour")
    ap.add_argument("--manifest", required=True)
    ap.add_argument("-o", "--out", required=True, help="folder to copy the runs to (the new --root)")
    ap.add_argument("--any-gpu", action="store_true", help="graft into profiles of any GPU model")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(a.manifest)))
    cells = {}
    for f in sorted(os.listdir(a.cells)):
        if f.endswith(".json"):
            p = json.load(open(os.path.join(a.cells, f)))
            if p.get("compute_neighbour") and alone(p)[0]:
                cells[f[:-5]] = p
    if not cells:
        sys.exit(f"graft-compute-cells: no profile with compute_neighbour in {a.cells}")
    manifest = json.load(open(a.manifest))
    paths = {manifest["profiles"]} if isinstance(manifest.get("profiles"), str) else set(manifest.get("profiles", []))
    for run in manifest["runs"]:
        paths.update(run[k] for k in ("dir", "scenario", "profiles") if run.get(k))
    for rel in sorted(paths):
        src, dst = os.path.join(root, rel), os.path.join(a.out, rel)
        if os.path.isdir(src):
            shutil.copytree(src, dst, dirs_exist_ok=True)
        elif os.path.exists(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    dst_manifest = os.path.join(a.out, os.path.relpath(os.path.abspath(a.manifest), root))
    os.makedirs(os.path.dirname(dst_manifest), exist_ok=True)
    shutil.copy2(a.manifest, dst_manifest)
    grafted = 0
    for dirpath, _, files in os.walk(a.out):
        for f in files:
            name = f[:-5]
            if not f.endswith(".json") or name not in cells:
                continue
            path = os.path.join(dirpath, f)
            try:
                target = json.load(open(path))
            except ValueError:
                continue
            if not isinstance(target, dict) or "sm_share_curve" not in target:
                continue
            source = cells[name]
            if not a.any_gpu and gpu_model(target) != gpu_model(source):
                continue
            (sreq, sp99), (treq, tp99) = alone(source), alone(target)
            if not treq:
                continue
            lat = tp99 / sp99 if tp99 and sp99 else 1.0
            target["compute_neighbour"] = scaled_grid(source["compute_neighbour"], treq / sreq, lat)
            json.dump(target, open(path, "w"), indent=1)
            grafted += 1
    print(f"grafted the compute-neighbour cells of {len(cells)} programs into {grafted} profiles under {a.out}")


if __name__ == "__main__":
    main()
