"""A 1-D convolutional audio model at batch 8, wav2vec 2.0 base-like: a feature encoder of seven Conv1d
layers (512 channels, kernels 10,3,3,3,3,2,2, strides 5,2,2,2,2,2,2, GroupNorm after the first, GELU)
turns 1 s of 16 kHz audio into 49 frames, a Conv1d positional embedding (kernel 128, 16 groups) and a
12-layer transformer encoder (d_model 768, 12 heads, feed-forward 3072) follow. fp16, random weights, 8
clips a request.

Kind: mixed, SM- then launch-bound. The conv stack is about 2.4 GMAC a clip (40 GFLOP a request), run at
full width on the tensor cores over thousands of time steps; the encoder then has only 8 x 49 = 392
tokens, so its ~100 kernels are short and the launches set its pace. Expected alone on an H100: about
2-3 ms a request (p99 about 4 ms); about 0.5 GiB.
"""
import torch

import serve_common

SAMPLES, CHANNELS, D, LAYERS, HEADS, FF, BATCH = 16000, 512, 768, 12, 12, 3072, 8
CONVS = [(10, 5), (3, 2), (3, 2), (3, 2), (3, 2), (2, 2), (2, 2)]  # (kernel, stride), as wav2vec 2.0


class FeatureEncoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layers, width = [], 1
        for i, (kernel, stride) in enumerate(CONVS):
            layers.append(torch.nn.Conv1d(width, CHANNELS, kernel, stride, bias=False))
            if i == 0:
                layers.append(torch.nn.GroupNorm(CHANNELS, CHANNELS))
            layers.append(torch.nn.GELU())
            width = CHANNELS
        self.convs = torch.nn.Sequential(*layers)

    def forward(self, audio):  # (batch, samples) -> (batch, frames, channels)
        return self.convs(audio.unsqueeze(1)).transpose(1, 2)


class AudioModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = FeatureEncoder()
        self.norm = torch.nn.LayerNorm(CHANNELS)
        self.project = torch.nn.Linear(CHANNELS, D)
        self.position = torch.nn.Conv1d(D, D, 128, padding=64, groups=16)
        layer = torch.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, activation="gelu", batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)

    def forward(self, audio):
        x = self.project(self.norm(self.features(audio)))
        x = x + torch.nn.functional.gelu(self.position(x.transpose(1, 2))[:, :, : x.shape[1]]).transpose(1, 2)
        return self.encoder(x)


args = serve_common.parse_args(__doc__)
model = AudioModel().half().cuda().eval()
audio = torch.randn(BATCH, SAMPLES, device="cuda", dtype=torch.half)
serve_common.serve(model, audio, args)
