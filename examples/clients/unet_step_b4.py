"""A diffusion UNet step at batch 4 (2 prompts with classifier-free guidance), Stable-Diffusion-like but
smaller: 64x64x4 latents, channels 192/384/768, two residual blocks per level down and three up (GroupNorm,
SiLU, 3x3 convolutions, a timestep embedding), and transformer blocks (self-attention, cross-attention to
77 x 768 text tokens, feed-forward) at 32x32, 16x16 and the middle. fp16, random weights; a request is one
denoising step, with attention through scaled_dot_product_attention (flash kernels).

Kind: SM-bound. About 870 GFLOP a request (counted with forward hooks: 3x3 convolutions of up to 768
channels and the blocks' linear layers; attention over 1024 tokens is 2% of it) in ~500 kernels, most large
enough to fill the GPU: the tensor cores set the pace, GroupNorm and SiLU add DRAM traffic. Expected alone
on an H100: about 5-8 ms a request (p99 about 10 ms); 216M parameters (0.4 GiB in fp16), under 1 GiB in all.
"""
import math

import torch
from torch import nn
from torch.nn import functional as F

import serve_common

CHANNELS, ATTENTION, TEXT, TEXT_DIM, BATCH = (192, 384, 768), (False, True, True), 77, 768, 4


def norm(c):
    return nn.GroupNorm(32, c)


class ResBlock(nn.Module):
    def __init__(self, cin, cout, tdim):
        super().__init__()
        self.n1, self.c1 = norm(cin), nn.Conv2d(cin, cout, 3, padding=1)
        self.t = nn.Linear(tdim, cout)
        self.n2, self.c2 = norm(cout), nn.Conv2d(cout, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, t):
        h = self.c1(F.silu(self.n1(x))) + self.t(t)[:, :, None, None]
        return self.skip(x) + self.c2(F.silu(self.n2(h)))


class Attention(nn.Module):
    def __init__(self, c, context_dim, heads=8):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v = nn.Linear(c, c, bias=False), nn.Linear(context_dim, c, bias=False), nn.Linear(context_dim, c, bias=False)
        self.out = nn.Linear(c, c)

    def forward(self, x, context):
        split = lambda t: t.unflatten(-1, (self.heads, -1)).transpose(1, 2)
        a = F.scaled_dot_product_attention(split(self.q(x)), split(self.k(context)), split(self.v(context)))
        return self.out(a.transpose(1, 2).flatten(2))


class TransformerBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.gn, self.proj_in, self.proj_out = norm(c), nn.Conv2d(c, c, 1), nn.Conv2d(c, c, 1)
        self.n1, self.self_attn = nn.LayerNorm(c), Attention(c, c)
        self.n2, self.cross_attn = nn.LayerNorm(c), Attention(c, TEXT_DIM)
        self.n3, self.ff = nn.LayerNorm(c), nn.Sequential(nn.Linear(c, 4 * c), nn.GELU(), nn.Linear(4 * c, c))

    def forward(self, x, text):
        b, c, h, w = x.shape
        y = self.proj_in(self.gn(x)).flatten(2).transpose(1, 2)  # (b, h*w, c)
        normed = self.n1(y)
        y = y + self.self_attn(normed, normed)
        y = y + self.cross_attn(self.n2(y), text)
        y = y + self.ff(self.n3(y))
        return x + self.proj_out(y.transpose(1, 2).reshape(b, c, h, w))


class Level(nn.Module):
    """Residual blocks, each followed by a transformer block where the level has attention."""

    def __init__(self, widths, attention, tdim):
        super().__init__()
        self.res = nn.ModuleList(ResBlock(a, b, tdim) for a, b in widths)
        self.attn = nn.ModuleList(TransformerBlock(b) if attention else nn.Identity() for _, b in widths)

    def forward(self, x, t, text, skips=None, saved=None):
        for res, attn in zip(self.res, self.attn):
            if skips:
                x = torch.cat([x, skips.pop()], dim=1)
            x = res(x, t)
            x = attn(x, text) if isinstance(attn, TransformerBlock) else x
            if saved is not None:
                saved.append(x)
        return x


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        tdim = 4 * CHANNELS[0]
        self.time = nn.Sequential(nn.Linear(CHANNELS[0], tdim), nn.SiLU(), nn.Linear(tdim, tdim))
        self.inp = nn.Conv2d(4, CHANNELS[0], 3, padding=1)
        self.down, self.downsample, width = nn.ModuleList(), nn.ModuleList(), CHANNELS[0]
        skip_widths = [width]
        for i, (c, attention) in enumerate(zip(CHANNELS, ATTENTION)):
            self.down.append(Level([(width, c), (c, c)], attention, tdim))
            width = c
            skip_widths += [c, c]
            last = i == len(CHANNELS) - 1
            self.downsample.append(nn.Identity() if last else nn.Conv2d(c, c, 3, stride=2, padding=1))
            if not last:
                skip_widths.append(c)
        self.middle = Level([(width, width), (width, width)], True, tdim)
        self.up, self.upsample = nn.ModuleList(), nn.ModuleList()
        for i, (c, attention) in reversed(list(enumerate(zip(CHANNELS, ATTENTION)))):
            widths = []
            for _ in range(3):
                widths.append((width + skip_widths.pop(), c))
                width = c
            self.up.append(Level(widths, attention, tdim))
            self.upsample.append(nn.Conv2d(c, c, 3, padding=1) if i else nn.Identity())
        self.out = nn.Sequential(norm(width), nn.SiLU(), nn.Conv2d(width, 4, 3, padding=1))

    def embed_time(self, steps):
        half = CHANNELS[0] // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=steps.device) / half)
        angles = steps[:, None].float() * freqs[None]
        return self.time(torch.cat([angles.cos(), angles.sin()], dim=1).to(self.inp.weight.dtype))

    def forward(self, latents, steps, text):
        t = self.embed_time(steps)
        x = self.inp(latents)
        skips = [x]
        for level, down in zip(self.down, self.downsample):
            x = level(x, t, text, saved=skips)
            if not isinstance(down, nn.Identity):
                x = down(x)
                skips.append(x)
        x = self.middle(x, t, text)
        for level, up in zip(self.up, self.upsample):
            x = level(x, t, text, skips=skips)
            if not isinstance(up, nn.Identity):
                x = up(F.interpolate(x, scale_factor=2.0, mode="nearest"))
        return self.out(x)


args = serve_common.parse_args(__doc__)
model = UNet().half().cuda().eval()
latents = torch.randn(BATCH, 4, 64, 64, device="cuda", dtype=torch.half)
steps = torch.full((BATCH,), 500, device="cuda")
text = torch.randn(BATCH, TEXT, TEXT_DIM, device="cuda", dtype=torch.half)
serve_common.serve_steps(lambda: model(latents, steps, text), args)
