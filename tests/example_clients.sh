#!/usr/bin/env bash
# Sourced by the GPU tests that run the example clients (examples/clients): exits 1 with one line unless
# a GPU and python3 with torch, torchvision and CUDA are here; sets CLIENTS to the clients' folder.
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU here" >&2
  exit 1
fi
if ! python3 -c 'import torch, torchvision; assert torch.cuda.is_available()' 2>/dev/null; then
  echo "python3 with torch, torchvision and CUDA is needed for the example clients" >&2
  exit 1
fi
CLIENTS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../examples/clients" && pwd)
export CLIENTS

# gpu0_catalog_model GPUPACK: the catalog model of GPU 0 from `gpupack gpus` (exits 1 when it has none).
gpu0_catalog_model() {
  local model
  model=$("$1" gpus --format json | jq -r '.devices[0].model // empty')
  [ -n "$model" ] || { echo "GPU 0 is not a catalog model" >&2; exit 1; }
  echo "$model"
}
