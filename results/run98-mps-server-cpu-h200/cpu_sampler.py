#!/usr/bin/env python3
"""Samples every process's CPU time (utime + stime from /proc/PID/stat) every INTERVAL seconds and writes one
line per sample and process that used CPU since the last sample (a process is counted from its second sample): `t pid name cores`, cores being the CPU
seconds it used over the interval's seconds. name is the basename of argv[0] (nvidia-cuda-mps-server, python3,
yes, ...). Runs until SIGTERM. Usage: cpu_sampler.py OUT.tsv [INTERVAL]"""
import os, signal, sys, time

out = open(sys.argv[1], "w", buffering=1)
interval = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
tick = os.sysconf("SC_CLK_TCK")
stop = False
signal.signal(signal.SIGTERM, lambda *_: globals().__setitem__("stop", True))


def read_all():
    seen = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = open(f"/proc/{pid}/stat").read()
            fields = stat[stat.rindex(")") + 2:].split()
            cpu = (int(fields[11]) + int(fields[12])) / tick
            argv0 = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")[0].decode(errors="replace")
            seen[int(pid)] = (cpu, os.path.basename(argv0) or stat[stat.index("(") + 1:stat.rindex(")")])
        except (OSError, ValueError, IndexError):
            continue
    return seen


t0 = time.monotonic()
out.write(f"# t0_epoch {time.time():.3f}\n")
last, last_t = read_all(), t0
while not stop:
    time.sleep(interval)
    now = read_all()
    t = time.monotonic()
    for pid, (cpu, name) in now.items():
        if pid not in last:  # first seen: its CPU time so far is not this interval's
            continue
        used = cpu - last[pid][0]
        if used > 0:
            out.write(f"{t - t0:.2f}\t{pid}\t{name}\t{used / (t - last_t):.3f}\n")
    last, last_t = now, t
