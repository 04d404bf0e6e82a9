"""The request loop shared by the example clients: warm up, say ready, then time each request.

Every client (README.md) builds its model with random weights, then hands one request to `serve` (a model
and its input) or `serve_steps` (any callable: a decode loop, a training step, CPU work plus a model).
"""
import argparse
import time

import torch

import gpupack_report


def parse_args(description, extra=None):
    """The options every client takes; `extra(parser)` may add the client's own before parsing."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--duration", type=float, default=60.0, help="seconds of requests after warm-up (default 60)")
    p.add_argument("--requests", type=int, default=0, help="stop after this many requests instead (0: use --duration)")
    p.add_argument("--warmup", type=int, default=20, help="untimed requests before saying ready (default 20)")
    if extra:
        extra(p)
    return p.parse_args()


def _more(args, done, begin):
    if args.requests:
        return done < args.requests
    return time.monotonic() - begin < args.duration


def serve_steps(step, args, warmup=None, inference=True):
    """Runs `step()` as requests; each ends with torch.cuda.synchronize() so its latency is real.

    warmup: untimed requests before the ready line (default args.warmup). inference=False keeps autograd
    on (a training step). Prints one line at the end and returns (requests, seconds).
    """
    with torch.inference_mode(inference):
        for _ in range(args.warmup if warmup is None else warmup):
            step()
        torch.cuda.synchronize()
        gpupack_report.ready()
        begin, done = time.monotonic(), 0
        while _more(args, done, begin):
            started = time.monotonic()
            step()
            torch.cuda.synchronize()
            gpupack_report.request_done(started)
            done += 1
    seconds = time.monotonic() - begin
    # The allocator's peak: what the program's tensors needed, without the CUDA context (about 0.5 GiB
    # more per process; gpupack profile measures the whole process through NVML).
    peak_mib = torch.cuda.max_memory_reserved() / 2**20
    print(f"{done} requests in {seconds:.1f} s: {done / max(seconds, 1e-9):.1f} req/s; "
          f"peak GPU memory {peak_mib:.0f} MiB (PyTorch allocator)", flush=True)
    return done, seconds


def serve(model, batch, args):
    """Runs `model(batch)` as requests (inference)."""
    return serve_steps(lambda: model(batch), args)
