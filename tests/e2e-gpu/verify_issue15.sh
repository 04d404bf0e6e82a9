#!/usr/bin/env bash
# GPU test (label gpu): issue 15's scenario end to end on the real GPU: `gpupack plan` of
# tests/planner/data/issue15-one-h100.yaml (6 x resnet18-b1 with an SLO of 3x its p99 alone, one GEMM batch
# job with isolation: memory, profiles recorded on an H100) must place all 7 on one GPU; `gpupack verify`
# then runs that plan with the example clients (verify_profiled.sh: 2 repeats, predictions vs measured).
# VERIFY_WINDOW (default 10 s) sets the window; VERIFY_SEARCH=resnet18-b1 adds the density search.
VERIFY_SCENARIO=issue15-one-h100 VERIFY_EXPECT_PLACED=7 exec bash "$(dirname "${BASH_SOURCE[0]}")/verify_profiled.sh" "$@"
