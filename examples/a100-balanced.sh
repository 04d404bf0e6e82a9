#!/usr/bin/env bash
# The mig-parted all-balanced layout on an A100-80GB: where each instance goes, and how many MPS
# clients it serves with 4 clients per instance.
set -euo pipefail
gpupack=${GPUPACK:-build/gpupack}
"$gpupack" mig validate A100-80GB 3g.40gb 2g.20gb 2x1g.10gb
"$gpupack" mig capacity A100-80GB 3g.40gb 2g.20gb 2x1g.10gb --mps 4
