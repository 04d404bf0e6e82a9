"""A large CNN at batch 32: torchvision resnet50 (random weights, fp16, channels-last so the convolutions
run on tensor cores), 32 images of 224x224 a request.

Kind: SM-bound. About 4.1 GMAC an image, 260 GFLOP a request, in ~170 kernels each large enough to fill
the GPU: the tensor cores, not the launches, set the pace. Expected alone on an H100: about 6-9 ms a
request (3,500-5,000 images/s; p99 about 9 ms); about 1 GiB of weights and activations.
"""
import torch
import torchvision

import serve_common

args = serve_common.parse_args(__doc__)
model = torchvision.models.resnet50(weights=None).half().cuda().eval().to(memory_format=torch.channels_last)
images = torch.randn(32, 3, 224, 224, device="cuda", dtype=torch.half).to(memory_format=torch.channels_last)
serve_common.serve(model, images, args)
