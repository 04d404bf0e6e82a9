"""A GPU-bound inference client: an MLP 2048-8192-8192-2048 (random weights, fp16) at batch 8."""
import torch

import serve_common

args = serve_common.parse_args(__doc__)
model = torch.nn.Sequential(
    torch.nn.Linear(2048, 8192), torch.nn.ReLU(),
    torch.nn.Linear(8192, 8192), torch.nn.ReLU(),
    torch.nn.Linear(8192, 2048),
).half().cuda().eval()
batch = torch.randn(8, 2048, device="cuda", dtype=torch.half)
serve_common.serve(model, batch, args)
