"""A memory-bandwidth-bound stream: STREAM's triad a = b + 3c over fp32 vectors of 128M elements (512 MiB
each), four times, then a sum of a, as one request. Nothing is random but the vectors' values.

Kind: memory-bandwidth-bound. A request moves 4 x 1.5 GiB + 0.5 GiB = 6.5 GiB (7.0 GB) through DRAM in 5
kernels with almost no arithmetic: the HBM sets the pace, and a neighbour loses DRAM bandwidth, not SMs.
Expected alone on an H100 (about 3.0 TB/s reached of 3.35): about 2.3 ms a request (p99 about 2.5 ms);
on an H200 (4.8 TB/s) about 1.6 ms. 1.5 GiB of GPU memory.
"""
import torch

import serve_common

ELEMENTS, PASSES = 128 * 2**20, 4

args = serve_common.parse_args(__doc__)
a = torch.empty(ELEMENTS, device="cuda")
b = torch.randn(ELEMENTS, device="cuda")
c = torch.randn(ELEMENTS, device="cuda")


def request():
    for _ in range(PASSES):
        torch.add(b, c, alpha=3.0, out=a)
    return a.sum()


serve_common.serve_steps(request, args)
