"""An embedding-heavy recommender at batch 4096, DLRM-like: 26 sparse features (as Criteo's), each an
nn.EmbeddingBag table of 300,000 rows x 128 (fp16, sums of 80 ids per sample: multi-hot, as DLRM v2), 13
dense features through a bottom MLP 13-512-256-128, and a top MLP 3456-1024-512-256-1 over the pooled
vectors. Random weights; every request draws fresh uniform ids on the GPU (no reuse the L2 could catch).

Kind: memory-bandwidth-bound. A request gathers 4096 x 26 x 80 = 8.5M random 256-byte rows out of 2.0 GB
of tables, about 2.2 GB of scattered DRAM reads, while its MLPs are about 30 GFLOP (0.1 ms of tensor
cores). Random 256-byte gathers reach roughly half an H100's 3.35 TB/s. Expected alone on an H100: about
1.5 ms a request (p99 about 2 ms); less on an H200 (4.8 TB/s). About 2.1 GB for PyTorch (tables 2.0 GB,
ids 68 MB), 2.5 GiB with the CUDA context.
"""
import torch

import serve_common

TABLES, ROWS, DIM, HOTS, DENSE, BATCH = 26, 300_000, 128, 80, 13, 4096


def mlp(*widths, last_relu=True):
    layers = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        layers.append(torch.nn.Linear(a, b))
        if last_relu or i < len(widths) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


class Recommender(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # Built on the GPU in fp16 directly: 26 x 300,000 x 128 initialised on the host would take seconds.
        self.tables = torch.nn.ModuleList(
            torch.nn.EmbeddingBag(ROWS, DIM, mode="sum", device="cuda", dtype=torch.half) for _ in range(TABLES))
        self.bottom = mlp(DENSE, 512, 256, DIM)
        self.top = mlp(DIM * (TABLES + 1), 1024, 512, 256, 1, last_relu=False)

    def forward(self, dense, ids):
        pooled = [table(ids[t]) for t, table in enumerate(self.tables)]  # ids[t]: (BATCH, HOTS)
        return torch.sigmoid(self.top(torch.cat([self.bottom(dense)] + pooled, dim=1)))


args = serve_common.parse_args(__doc__)
model = Recommender()
model.bottom.half().cuda()
model.top.half().cuda()
model.eval()
dense = torch.randn(BATCH, DENSE, device="cuda", dtype=torch.half)
ids = torch.empty(TABLES, BATCH, HOTS, device="cuda", dtype=torch.long)
serve_common.serve_steps(lambda: model(dense, ids.random_(0, ROWS)), args)
