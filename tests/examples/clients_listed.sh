#!/usr/bin/env bash
# Unit test (label unit), issue 36: every Python file in examples/clients byte-compiles (python3 -m
# py_compile; the bytecode goes to a temporary folder, not beside the sources), every one is named in the
# first column of a table in examples/clients/README.md and every file a row names exists, and the corpus
# keeps at least ten clients (files that run the shared request loop, serve_common).
# Usage: clients_listed.sh REPOSITORY-ROOT [PYTHON3]
set -euo pipefail
ROOT=${1:?usage: $0 REPOSITORY-ROOT [PYTHON3]}
PYTHON=${2:-python3}
DIR="$ROOT/examples/clients"
CACHE=$(mktemp -d)
trap 'rm -rf "$CACHE"' EXIT
FAILURES=0
fail() {
  echo "FAIL: $*" >&2
  FAILURES=$((FAILURES + 1))
}

# The first cell of each table row, where it is one file name in backquotes: | `name.py` | ...
# shellcheck disable=SC2016 # the backquotes are Markdown, not a command
listed=$(sed -nE 's/^\| *`([A-Za-z0-9_]+\.py)` *\|.*/\1/p' "$DIR/README.md")
clients=0
for path in "$DIR"/*.py; do
  name=$(basename "$path")
  PYTHONPYCACHEPREFIX="$CACHE" "$PYTHON" -m py_compile "$path" 2>"$CACHE/err" || fail "$name does not compile: $(tail -n 1 "$CACHE/err")"
  grep -qxF "$name" <<<"$listed" || fail "$name has no row in examples/clients/README.md (a table row starting | \`$name\` |)"
  if grep -q '^import serve_common' "$path"; then clients=$((clients + 1)); fi
done
for name in $listed; do
  [ -f "$DIR/$name" ] || fail "examples/clients/README.md lists $name, which is not in examples/clients"
done
[ "$clients" -ge 10 ] || fail "the corpus has $clients clients (files importing serve_common); issue 36 asks for at least ten"

if [ "$FAILURES" -gt 0 ]; then
  echo "$FAILURES check(s) failed" >&2
  exit 1
fi
echo "all checks passed: $clients clients, $(wc -w <<<"$listed") files listed"
