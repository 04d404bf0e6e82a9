"""A training step as the batch neighbour: torchvision resnet18 (100 classes, random weights, channels-last)
on 64 random 160x160 images with random labels; forward and backward under bf16 autocast, cross-entropy,
then SGD with Nesterov momentum (foreach). A "request" is one optimizer step; its rate is the job's.

Kind: SM-bound. About 0.93 GMAC an image forward, x3 with the backward: 360 GFLOP a step in ~250 kernels
(convolutions on the tensor cores; batch norm and ReLU backward add DRAM traffic). Expected alone on an
H100: about 5 ms a step (p99 about 6 ms); about 1.5 GiB (activations kept for the backward, weights,
gradients, momentum).
"""
import torch
import torchvision
from torch.nn import functional as F

import serve_common

BATCH, SIZE, CLASSES = 64, 160, 100

args = serve_common.parse_args(__doc__, lambda p: p.set_defaults(warmup=10))
model = torchvision.models.resnet18(weights=None, num_classes=CLASSES).cuda().to(memory_format=torch.channels_last)
model.train()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, nesterov=True, weight_decay=5e-5, foreach=True)
images = torch.randn(BATCH, 3, SIZE, SIZE, device="cuda").to(memory_format=torch.channels_last)
labels = torch.randint(0, CLASSES, (BATCH,), device="cuda")


def step():
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = F.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()


serve_common.serve_steps(step, args, inference=False)
