"""A saturating batch job: 8192^3 fp16 matrix products in a loop. Reports each product as a request
(its throughput is the job's) and prints TFLOP/s at the end."""
import argparse
import time

import torch

import gpupack_report

p = argparse.ArgumentParser(description=__doc__)
p.add_argument("--duration", type=float, default=60.0, help="seconds of work after warm-up (default 60)")
p.add_argument("--size", type=int, default=8192, help="matrix size (default 8192)")
args = p.parse_args()

a = torch.randn(args.size, args.size, device="cuda", dtype=torch.half)
b = torch.randn(args.size, args.size, device="cuda", dtype=torch.half)
for _ in range(3):
    c = a @ b
torch.cuda.synchronize()
gpupack_report.ready()
begin, done = time.monotonic(), 0
while time.monotonic() - begin < args.duration:
    started = time.monotonic()
    c = a @ b
    torch.cuda.synchronize()
    gpupack_report.request_done(started)
    done += 1
seconds = time.monotonic() - begin
print(f"{done} GEMMs in {seconds:.1f} s: {2 * args.size ** 3 * done / seconds / 1e12:.1f} TFLOP/s", flush=True)
