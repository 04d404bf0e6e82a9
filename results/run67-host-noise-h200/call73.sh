#!/usr/bin/env bash
# run73: bert-base-b4 serving for 40 s (its own loop, no profile) on vCPU 13, then 20 s without it, while
# the Python loop (vCPU 14) and the C probes (vCPU 15, with a high-IPC block of 8 independent chains) are timed.
set -u
mkdir -p "$OUT/r"
.device/exp/probes 15 70 >"$OUT/r/probes.txt" &
taskset -c 14 python3 - >"$OUT/r/pyloop.txt" <<'P' &
import time
end=time.time()+70
while time.time()<end:
    t=time.perf_counter(); x=0
    for i in range(300000): x+=i*i
    print(f"{time.time():.3f} {1e3*(time.perf_counter()-t):.2f}", flush=True)
    time.sleep(0.3)
P
sleep 5
echo "$(date +%s.%N) bert start" >"$OUT/r/stamps.txt"
GPUPACK_REPORT="$OUT/r/bert.jsonl" timeout 45 taskset -c 13 python3 examples/clients/bert_base_b4.py --duration 40 >"$OUT/r/bert.out" 2>&1
echo "$(date +%s.%N) bert end" >>"$OUT/r/stamps.txt"
wait
tar czf "$OUT/run.tgz" -C "$OUT" r
python3 - "$OUT/r" <<'P'
import sys,statistics as s,json
d=sys.argv[1]
st=[float(l.split()[0]) for l in open(d+'/stamps.txt')]
py=[l.split() for l in open(d+'/pyloop.txt')]; pr=[l.split() for l in open(d+'/probes.txt')]
def med(rows,i,a,b): v=[float(r[i]) for r in rows if a<=float(r[0])<b]; return (round(s.median(v),2), round(min(v),2), round(max(v),2)) if v else None
for name,a,b in (('before bert',0,st[0]),('bert running',st[0]+8,st[1]),('after bert',st[1],1e12)):
  print(name,'py',med(py,1,a,b),'ipc',med(pr,2,a,b),'alu',med(pr,5,a,b),'l2',med(pr,7,a,b))
lat=[json.loads(l) for l in open(d+'/bert.jsonl') if '"request"' in l]
print('bert requests', len(lat))
t0=lat[0]['t']; end=lat[-1]['t']
chunks=[]
k=0
while t0+5*k<end:
  v=[r['latency_ms'] for r in lat if t0+5*k<=r['t']<t0+5*(k+1)]; chunks.append(round(s.median(v),2) if v else None); k+=1
print('bert p50 per 5 s', chunks)
w0=st[1]-(end-t0)
print('py per 5 s (same clock, from bert first request)', [med(py,1,w0+5*i,w0+5*(i+1)) for i in range(len(chunks))])
print('ipc per 5 s', [med(pr,2,w0+5*i,w0+5*(i+1)) for i in range(len(chunks))])
P
rm -rf "$OUT/r"
