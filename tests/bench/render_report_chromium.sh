#!/usr/bin/env bash
# Renders the bench report in headless Chromium and checks that the browser built every chart: the
# <svg> elements, their bars and the latency lines must be in the rendered DOM, not only in the file.
set -euo pipefail
fixture=${1:?usage: $0 path/to/write_report_fixture}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "FAIL: chromium is not installed (scripts/setup-deps.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fixture" "$work/report.html"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
  --dump-dom "file://$work/report.html" >"$work/dom.html" 2>"$work/chromium.log" || {
  echo "FAIL: chromium could not render the report" >&2
  tail -20 "$work/chromium.log" >&2
  exit 1
}
count() { grep -o "$1" "$work/dom.html" | wc -l; }
svgs=$(count '<svg')
bars=$(count 'class="bar"')
lines=$(count '<polyline')
echo "rendered DOM: $svgs svg charts, $bars bars, $lines lines"
[ "$svgs" -eq 9 ] || { echo "FAIL: expected 9 charts in the rendered page, found $svgs" >&2; exit 1; }
[ "$bars" -gt 20 ] || { echo "FAIL: expected the charts' bars in the rendered page, found $bars" >&2; exit 1; }
[ "$lines" -eq 10 ] || { echo "FAIL: expected 10 lines (6 latency CDFs, 2 modes x 2 grid curves), found $lines" >&2; exit 1; }
grep -q 'NVIDIA H200' "$work/dom.html" || { echo "FAIL: device name missing from the rendered page" >&2; exit 1; }
