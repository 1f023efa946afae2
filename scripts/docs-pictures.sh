#!/usr/bin/env bash
# Remakes the pictures the README shows, with the tool itself: docs/print-sheet.png (the
# first page of `bank print`, rendered by poppler's pdftoppm) and docs/solving-page.png
# (`bank explain --html` in headless Chromium, at a chain step, drawn whole: reduced motion).
# Needs: apt-get install -y poppler-utils chromium
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bank=target/release/bank
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bank" fill --count 40 --seed 7 --db "$work/bank.sqlite" 2>/dev/null
"$bank" print --db "$work/bank.sqlite" --tier hard --count 4 --per-page 4 --solutions \
  --out "$work/sheet.pdf"
pdftoppm -png -r 80 -f 1 -l 1 -singlefile "$work/sheet.pdf" docs/print-sheet
# The SE 7.2 calibration puzzle the browser test uses; `#s11` opens it at step 11, a chain.
"$bank" explain 000000000800000002042000570090000080700206009501000407309010706200030001000769000 \
  --html "$work/solve.html"
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --force-prefers-reduced-motion \
  --user-data-dir="$work/profile" \
  --window-size=1200,760 --virtual-time-budget=3000 --screenshot="$PWD/docs/solving-page.png" \
  "file://$work/solve.html#s11" 2>/dev/null
ls -l docs/print-sheet.png docs/solving-page.png
