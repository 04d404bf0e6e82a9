#!/usr/bin/env bash
# run61: the memory scenario on an H200 with fresh default profiles (the cell at 100%) of dlrm-b4096 and
# bert-base-b4 (the triad's from run54, wav2vec's from run59), round 1 and round 2 (plan --observed).
set -u
SCEN=memory PREV=.device/prev61 BUDGET_S=${BUDGET_S:-560} PROFILE_S=${PROFILE_S:-190} bash .device/call51.sh
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
ls "$OUT"
