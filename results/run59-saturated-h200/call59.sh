#!/usr/bin/env bash
# run59: the saturated scenario (examples/corpus/saturated-h200.yaml) through call51.sh, then only run.tgz is
# left under $OUT (a call brings back at most eight files).
set -u
SCEN=saturated PREV=.device/prev59 BUDGET_S=${BUDGET_S:-575} PROFILE_S=${PROFILE_S:-200} bash .device/call51.sh
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
ls "$OUT"
