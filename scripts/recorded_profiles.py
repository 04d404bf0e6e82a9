"""The recorded workload profiles under some directories, for the analysis scripts (noise-ceiling.py,
host-speed.py): every *.json with a "name" and a "baseline" object, the corpus program each ran and its GPU."""
import argparse
import json
import os
import sys


def profiles(roots):
    """Yield every profile JSON object under the directories (files that do not parse are skipped)."""
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for name in sorted(files):
                if not name.endswith(".json"):
                    continue
                try:
                    with open(os.path.join(dirpath, name)) as f:
                        profile = json.load(f)
                except (OSError, ValueError):
                    continue
                if isinstance(profile, dict) and isinstance(profile.get("name"), str):
                    yield profile


def baseline_blocks(profile):
    """The plain and the MPS 100% baselines as (setting, block): "alone" and "mps-100"."""
    b = profile.get("baseline")
    if not isinstance(b, dict):
        return []
    return [(setting, block) for setting, block in (("alone", b), ("mps-100", b.get("mps"))) if isinstance(block, dict)]


def program(profile):
    """The corpus program it ran (examples/clients/bert_base_b4.py: bert-base-b4), else its name."""
    command = profile.get("command")
    if isinstance(command, list):
        for part in command:
            if isinstance(part, str) and "examples/clients/" in part and part.endswith(".py"):
                return os.path.basename(part)[:-3].replace("_", "-")
    return profile["name"]


def gpu(profile):
    device = profile.get("device")
    model = device.get("model") if isinstance(device, dict) else None
    return model if isinstance(model, str) and model else "-"


def parse_args(tool, description):
    """DIR... [--format table|json]: the directories checked; exit 2 with one line on bad arguments or a path
    that is not a directory."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("roots", nargs="+", help="directories searched for profile JSON files")
    ap.add_argument("--format", choices=["table", "json"], default="table")
    try:
        args = ap.parse_args()
    except SystemExit as e:
        sys.exit(2 if e.code else 0)
    for root in args.roots:
        if not os.path.isdir(root):
            print(f"{tool}: {root!r} is not a directory (give directories holding profile JSON files)", file=sys.stderr)
            sys.exit(2)
    return args
