"""A client with CPU pre-processing per request: 4 camera frames (640x480, YUV 4:2:0 planes as a JPEG or
video decoder's entropy stage leaves them) are decoded to RGB (chroma upsampling and the BT.601 colour
matrix), resized with antialiasing to a short side of 256, centre-cropped to 224 and normalised, all with
torch CPU ops on one thread, then copied to the GPU and classified by torchvision resnet18 (fp16, random
weights) at batch 4. Frames come from a pool of 8 made at start-up.

Kind: host-CPU-bound. One thread per copy, as one worker process of a server: about 3-8 ms of CPU a
frame, depending on the CPU (10 ms on a loaded 2-core development machine with Debian's PyTorch 1.13),
so 12-30 ms a request against about 2 ms of GPU work: each copy keeps about one host core busy, and the
host's cores, not the GPU, bound how many copies keep their latency. Expected alone on an H100 host: about
15-30 ms a request (p99 about 30 ms); under 0.2 GiB besides the CUDA context.
"""
import itertools

import torch
import torchvision
from torch.nn import functional as F

import serve_common

FRAMES, HEIGHT, WIDTH, BATCH, SHORT_SIDE, CROP = 8, 480, 640, 4, 256, 224
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1) * 255
STD = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1) * 255


def received_frames():
    """Random Y (H x W) and U, V (2 x H/2 x W/2) planes: the decoder's input is not what is measured."""
    g = torch.Generator().manual_seed(0)
    plane = lambda *shape: torch.randint(0, 256, shape, dtype=torch.uint8, generator=g)
    return [(plane(HEIGHT, WIDTH), plane(2, HEIGHT // 2, WIDTH // 2)) for _ in range(FRAMES)]


def to_rgb(y, uv):
    """Full-range BT.601 YUV 4:2:0 to RGB (3 x H x W float): the colour stage of a JPEG decode."""
    y = y.float()
    u, v = (uv.float() - 128).repeat_interleave(2, dim=1).repeat_interleave(2, dim=2)
    return torch.stack([y + 1.402 * v, y - 0.344136 * u - 0.714136 * v, y + 1.772 * u]).clamp_(0, 255)


def preprocess(y, uv, out):
    rgb = to_rgb(y, uv).unsqueeze(0)
    scale = SHORT_SIDE / min(HEIGHT, WIDTH)
    size = (round(HEIGHT * scale), round(WIDTH * scale))
    rgb = F.interpolate(rgb, size=size, mode="bilinear", antialias=True, align_corners=False)[0]
    top, left = (size[0] - CROP) // 2, (size[1] - CROP) // 2
    torch.div(rgb[:, top:top + CROP, left:left + CROP] - MEAN, STD, out=out)


def main():
    torch.set_num_threads(1)  # one core a copy, as a server's worker process
    args = serve_common.parse_args(__doc__, lambda p: p.set_defaults(warmup=5))
    model = torchvision.models.resnet18(weights=None).half().cuda().eval()
    frames = itertools.cycle(received_frames())
    staged = torch.empty(BATCH, 3, CROP, CROP).pin_memory()  # pinned: the copy to the GPU is one DMA

    def request():
        for i in range(BATCH):
            preprocess(*next(frames), staged[i])
        return model(staged.to("cuda", non_blocking=True).half())

    serve_common.serve_steps(request, args)


if __name__ == "__main__":
    main()
