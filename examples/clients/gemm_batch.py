"""A saturating batch job: 8192^3 fp16 matrix products in a loop. Reports each product as a request
(its throughput is the job's) and prints TFLOP/s at the end."""
import torch

import serve_common


def options(p):
    p.add_argument("--size", type=int, default=8192, help="matrix size (default 8192)")
    p.set_defaults(warmup=3)


args = serve_common.parse_args(__doc__, options)
a = torch.randn(args.size, args.size, device="cuda", dtype=torch.half)
b = torch.randn(args.size, args.size, device="cuda", dtype=torch.half)
done, seconds = serve_common.serve_steps(lambda: a @ b, args)
print(f"{done} GEMMs in {seconds:.1f} s: {2 * args.size ** 3 * done / max(seconds, 1e-9) / 1e12:.1f} TFLOP/s", flush=True)
