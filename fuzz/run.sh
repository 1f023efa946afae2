#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 60) from the committed seeds, on nightly
# Rust with cargo-fuzz (`cargo install cargo-fuzz`). New corpus entries go to a scratch
# folder; a crash is saved under fuzz/artifacts/TARGET: copy it into
# fuzz/regressions/TARGET (committed) once fixed, and tests/it/fuzz_corpus.rs replays it.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in puzzle_line config_text import_lines export_rows; do
  mkdir -p "$scratch/$target"
  echo "== $target for ${seconds}s"
  cargo +nightly fuzz run "$target" "$scratch/$target" "seeds/$target" "regressions/$target" \
    -- -max_total_time="$seconds" -max_len=4096 -print_final_stats=1
done
