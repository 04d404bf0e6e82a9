"""A launch-bound inference client: resnet18 (random weights, fp16) at batch 1, one request per image."""
import torch
import torchvision

import serve_common

args = serve_common.parse_args(__doc__)
model = torchvision.models.resnet18(weights=None).half().cuda().eval()
image = torch.randn(1, 3, 224, 224, device="cuda", dtype=torch.half)
serve_common.serve(model, image, args)
