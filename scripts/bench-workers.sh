#!/usr/bin/env bash
# Accepted puzzles per second for 1, 2 and 4 `bank nightly` worker processes filling one
# bank together, on SQLite and on PostgreSQL, and the share of each worker's time spent
# in the writer's transactions, and the share of puzzles made but dropped as surplus (made
# while other workers filled the quota). Each measurement starts from an empty bank.
#
#   scripts/bench-workers.sh ADMIN_URL [WORKERS...]
#
# ADMIN_URL: a PostgreSQL URL whose user may create databases (the script makes and
# drops one per measurement), e.g. 'postgres:///postgres?host=/tmp/pg&port=5432&user=postgres'.
# Environment: BANK (default target/release/bank), QUOTA (9x9 easy/medium/hard quota
# each, default 4000), THREADS (per worker, default 1).
set -euo pipefail
admin=${1:?usage: $0 ADMIN_URL [WORKERS...]}
shift
workers=("${@:-1 2 4}")
read -r -a workers <<<"${workers[*]}"
bank=${BANK:-target/release/bank}
quota=${QUOTA:-4000}
threads=${THREADS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

base=$(sed '/^\[quota\.6\]/,$d' config/bank.toml)
printf '%s\n[quota.9]\neasy = %s\nmedium = %s\nhard = %s\n' "$base" "$quota" "$quota" "$quota" >"$work/bench.toml"

# The URL of database $2 on the server of admin URL $1.
database_url() {
  python3 - "$1" "$2" <<'PY'
import sys, urllib.parse as u
p = u.urlsplit(sys.argv[1])
print(f"{p.scheme}://{p.netloc}/{sys.argv[2]}" + (f"?{p.query}" if p.query else ""))
PY
}

printf '%-10s %7s %9s %9s %12s %8s\n' backend workers seconds "puzzles/s" "writer share" surplus
for backend in sqlite postgres; do
  for n in "${workers[@]}"; do
    if [ "$backend" = sqlite ]; then
      db="$work/bench-$n.sqlite"
    else
      name="bench_workers_$$_$n"
      psql "$admin" -qc "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null 2>&1
      db=$(database_url "$admin" "$name")
    fi
    # Create the schema first, so the timing is the fill alone.
    "$bank" fill --count 0 --db "$db" 2>/dev/null
    start=$(date +%s.%N)
    pids=()
    for i in $(seq "$n"); do
      "$bank" nightly --threads "$threads" --config "$work/bench.toml" --db "$db" \
        --summary-json "$work/$backend-$n-$i.json" 2>/dev/null &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || true; done
    end=$(date +%s.%N)
    python3 - "$work" "$backend" "$n" "$start" "$end" "$quota" <<'PY'
import json, sys, glob
work, backend, n, start, end, quota = sys.argv[1:]
runs = [json.load(open(f)) for f in glob.glob(f"{work}/{backend}-{n}-*.json")]
stored = sum(r["counts"]["accepted"] for r in runs)
busy = sum(r["writer_busy_s"] for r in runs)
spent = sum(r["duration_s"] for r in runs)
surplus = sum(i["surplus"] for r in runs for i in r["items"])
secs = float(end) - float(start)
assert stored == 3 * int(quota), f"stored {stored}, wanted {3 * int(quota)}"
print(f"{backend:<10} {n:>7} {secs:>9.2f} {stored / secs:>9.0f} {busy / spent:>11.1%} "
      f"{surplus / (stored + surplus):>8.1%}")
PY
    if [ "$backend" = postgres ]; then
      psql "$admin" -qc "DROP DATABASE $name" >/dev/null
    fi
  done
done
