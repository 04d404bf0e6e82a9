#!/usr/bin/env bash
# run75: each vCPU's eight-chain time with vCPU 0 idle, then with vCPU 0 spinning the same work: a vCPU
# that slows only while vCPU 0 spins shares its physical core (an SMT sibling the guest does not see).
set -u
S=.device/exp/smt
for round in idle spin idle2 spin2; do
  case $round in spin*) $S spin 0 40 & SP=$! ;; *) SP= ;; esac
  sleep 0.5
  for c in $(seq 1 15); do echo "$round core $c $($S probe "$c" 7)"; done
  [ -n "$SP" ] && kill "$SP"
done | tee "$OUT/smt.txt" | python3 -c "
import sys,statistics as s,collections
d=collections.defaultdict(dict)
for l in sys.stdin:
  p=l.split(); d[int(p[2])][p[0]]=s.median(map(float,p[3:]))
for c in sorted(d): print(c, ' '.join(f'{k} {d[c][k]:.2f}' for k in ('idle','spin','idle2','spin2')))
"
