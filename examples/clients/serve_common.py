"""The request loop shared by the inference clients: warm up, say ready, then time each request."""
import argparse
import time

import torch

import gpupack_report


def parse_args(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--duration", type=float, default=60.0, help="seconds of requests after warm-up (default 60)")
    p.add_argument("--requests", type=int, default=0, help="stop after this many requests instead (0: use --duration)")
    p.add_argument("--warmup", type=int, default=20, help="untimed requests before saying ready (default 20)")
    return p.parse_args()


def serve(model, batch, args):
    """Runs `model(batch)` as requests; each request ends with torch.cuda.synchronize() so its latency is real."""
    with torch.inference_mode():
        for _ in range(args.warmup):
            model(batch)
        torch.cuda.synchronize()
        gpupack_report.ready()
        begin, done = time.monotonic(), 0
        while (args.requests and done < args.requests) or (not args.requests and time.monotonic() - begin < args.duration):
            started = time.monotonic()
            model(batch)
            torch.cuda.synchronize()
            gpupack_report.request_done(started)
            done += 1
    seconds = time.monotonic() - begin
    print(f"{done} requests in {seconds:.1f} s: {done / seconds:.0f} req/s", flush=True)
