"""A host-CPU-bound client: an autoregressive decode loop at batch 1 with a KV cache (a 4-layer
transformer decoder, d_model 1024, random weights, fp16). A request generates 32 tokens; every token's
logits go to the host, where Python samples the next token (top-k with a temperature), so each copy keeps
about one host core busy and many copies are bound by the host's cores, not by the GPU (issue 37)."""
import math
import random

import torch

import serve_common

LAYERS, D, HEADS, VOCAB, TOKENS, PROMPT, MAX_LEN = 4, 1024, 16, 8192, 32, 64, 128


class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(D, 3 * D)
        self.out = torch.nn.Linear(D, D)
        self.ff = torch.nn.Sequential(torch.nn.Linear(D, 4 * D), torch.nn.GELU(), torch.nn.Linear(4 * D, D))
        self.n1, self.n2 = torch.nn.LayerNorm(D), torch.nn.LayerNorm(D)

    def forward(self, x, cache, pos):
        q, k, v = self.qkv(self.n1(x)).split(D, dim=-1)
        cache[0][:, pos:pos + x.shape[1]] = k
        cache[1][:, pos:pos + x.shape[1]] = v
        keys, values = cache[0][:, :pos + x.shape[1]], cache[1][:, :pos + x.shape[1]]
        h = lambda t: t.view(t.shape[0], t.shape[1], HEADS, D // HEADS).transpose(1, 2)
        att = torch.softmax(h(q) @ h(keys).transpose(-1, -2) / math.sqrt(D // HEADS), dim=-1) @ h(values)
        x = x + self.out(att.transpose(1, 2).reshape(x.shape))
        return x + self.ff(self.n2(x))


class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, D)
        self.layers = torch.nn.ModuleList(Layer() for _ in range(LAYERS))
        self.head = torch.nn.Linear(D, VOCAB)

    def forward(self, tokens, caches, pos):
        x = self.embed(tokens)
        for layer, cache in zip(self.layers, caches):
            x = layer(x, cache, pos)
        return self.head(x[:, -1])


def sample(logits, generator):
    """Top-k sampling on the host, in Python: the per-token CPU work of a real decode loop."""
    values, indices = torch.topk(logits.float().cpu(), 50)
    weights = [math.exp(v / 0.8) for v in (values - values.max()).tolist()]
    total, r, acc = sum(weights), generator.random(), 0.0
    for w, i in zip(weights, indices.tolist()):
        acc += w / total
        if acc >= r:
            return i
    return indices[-1].item()


def request(model, prompt, generator):
    caches = [(torch.empty(1, MAX_LEN, D, device="cuda", dtype=torch.half),
               torch.empty(1, MAX_LEN, D, device="cuda", dtype=torch.half)) for _ in range(LAYERS)]
    logits = model(prompt, caches, 0)
    pos = prompt.shape[1]
    for _ in range(TOKENS):
        token = sample(logits[0], generator)
        logits = model(torch.tensor([[token]], device="cuda"), caches, pos)
        pos += 1


def main():
    args = serve_common.parse_args(__doc__, lambda p: p.set_defaults(warmup=5))
    model = Decoder().half().cuda().eval()
    prompt = torch.randint(0, VOCAB, (1, PROMPT), device="cuda")
    generator = random.Random(0)
    serve_common.serve_steps(lambda: request(model, prompt, generator), args)


if __name__ == "__main__":
    main()
