"""A transformer encoder at batch 4: BERT-base-like (12 layers, d_model 768, 12 heads, feed-forward 3072,
post-LayerNorm, GELU) built from torch.nn.TransformerEncoder, fp16, random weights, over 128 tokens of a
30522-word vocabulary with learned positions. A request encodes 4 sequences and returns the pooled [CLS]
vector.

Kind: launch-bound with tensor-core bursts. 512 tokens x 12 layers are about 90 GFLOP a request, under
0.5 ms of an H100's fp16 tensor cores, while the ~100 kernels of the encoder's inference fast path
(batch_first, eval, inference mode) each cost a few microseconds to launch and finish. Expected alone on an
H100: about 1.5 ms a request (p99 about 2.5 ms); about 0.4 GiB of weights and activations.
"""
import torch

import serve_common

LAYERS, D, HEADS, FF, VOCAB, SEQ, BATCH = 12, 768, 12, 3072, 30522, 128, 4


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = torch.nn.Embedding(VOCAB, D)
        self.positions = torch.nn.Embedding(SEQ, D)
        self.norm = torch.nn.LayerNorm(D)
        layer = torch.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, activation="gelu", batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
        self.pool = torch.nn.Linear(D, D)

    def forward(self, ids):
        x = self.norm(self.tokens(ids) + self.positions.weight[: ids.shape[1]])
        return torch.tanh(self.pool(self.encoder(x)[:, 0]))


args = serve_common.parse_args(__doc__)
model = Encoder().half().cuda().eval()
ids = torch.randint(0, VOCAB, (BATCH, SEQ), device="cuda")
serve_common.serve(model, ids, args)
