#!/usr/bin/env bash
# The user guide's index (issue 35): docs/README.md links every page of docs/, README.md links
# docs/README.md and every page, and no relative Markdown link in README.md, docs/*.md or the results
# index (results/README.md, results/history.md) points to a file that is not there. A new page that is
# not in the index, or a page moved without its links, fails here. The binary is not used: the argument
# is taken only because every e2e test is called with it.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The relative targets of the Markdown links [text](target) of file $1, outside ``` fences, one a line,
# without any #anchor; web and mail links and in-page anchors are left out.
link_targets() {
  awk '/^[[:space:]]*```/ {fence = !fence; next} !fence {print}' "$1" |
    grep -oE '\]\([^) ]+\)' | sed -E 's/^\]\(//; s/\)$//; s/#.*$//' |
    grep -vE '^(https?:|mailto:|$)' || true
}

# Does file $1 link the file at repository path $2?
links_to() {
  local dir target
  dir=$(dirname "$1")
  while IFS= read -r target; do
    [ "$(realpath -m "$dir/$target")" = "$(realpath -m "$ROOT/$2")" ] && return 0
  done < <(link_targets "$1")
  return 1
}

fail_with() { LAST=$1; fail "$2"; }

[ -f "$ROOT/docs/README.md" ] || fail_with docs/README.md "is missing: the user guide has no index"
links_to "$ROOT/README.md" docs/README.md || fail_with README.md "does not link docs/README.md"
PAGES=0
for page in "$ROOT"/docs/*.md; do
  name=docs/$(basename "$page")
  [ "$name" = docs/README.md ] && continue
  PAGES=$((PAGES + 1))
  links_to "$ROOT/docs/README.md" "$name" || fail_with docs/README.md "does not link $name"
  links_to "$ROOT/README.md" "$name" || fail_with README.md "does not link $name"
done
[ "$PAGES" -ge 10 ] || fail_with docs/ "holds $PAGES pages, expected the user guide's 10 or more"

LINKS=0
for file in "$ROOT/README.md" "$ROOT"/docs/*.md "$ROOT/results/README.md" "$ROOT/results/history.md"; do
  [ -f "$file" ] || { fail_with "${file#"$ROOT"/}" "is missing"; continue; }
  while IFS= read -r target; do
    LINKS=$((LINKS + 1))
    [ -e "$(dirname "$file")/$target" ] ||
      fail_with "${file#"$ROOT"/}" "links $target, which does not exist"
  done < <(link_targets "$file")
done
[ "$LINKS" -ge 20 ] || fail_with "the guide" "has $LINKS relative links, expected 20 or more"

# The run history left the user guide: nothing under docs/ but its pages.
[ ! -e "$ROOT/docs/results" ] || fail_with docs/results "exists: the measured runs belong in results/"
finish
