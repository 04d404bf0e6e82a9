"""A small CNN at batch 8: torchvision mobilenet_v3_small (random weights, fp16), 8 images of 224x224 a
request.

Kind: launch-bound. About 0.06 GFLOP an image (0.5 GFLOP a request) spread over ~200 small kernels
(depthwise and pointwise convolutions, batch norms, hardswish, squeeze-excitation), none of which fills
an H100's 132 SMs: the host's launches set the pace, one CPU core a copy. Expected alone on an H100:
about 2-3 ms a request (p99 about 4 ms); under 0.2 GiB besides the CUDA context.
"""
import torch
import torchvision

import serve_common

args = serve_common.parse_args(__doc__)
model = torchvision.models.mobilenet_v3_small(weights=None).half().cuda().eval()
images = torch.randn(8, 3, 224, 224, device="cuda", dtype=torch.half)
serve_common.serve(model, images, args)
