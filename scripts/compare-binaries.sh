#!/usr/bin/env bash
# Compares two `bank` binaries the way the speed work on issues 15 and 18 was judged:
#
#   1. same output: `bank rate --json` on fixed puzzle sets and the stored columns of
#      expert fills must be byte for byte the same (md5s side by side);
#   2. instructions (valgrind's callgrind, which the machine's noise does not touch):
#      rating 200 classic and 60 diagonal experts, `bank generate --count 300` (digging),
#      solving the killer set;
#   3. CPU seconds of expert fills on one worker each, both binaries at once, the cores
#      swapped every round (wall-clock rates on a shared 2-core machine vary by a third
#      between runs; side by side, both see the same machine).
#
#   scripts/compare-binaries.sh OLD NEW
#
# Environment: ROUNDS (CPU rounds per variant, default 4; 0 skips step 3), WORK (directory
# for the sets and banks, default a fresh temporary one, removed at the end; give one to
# keep the sets between runs: they are rebuilt only when missing). The sets are made by
# OLD with fixed seeds, so a rerun compares on the same puzzles.
# Needs: valgrind, taskset, python3.
set -euo pipefail
old=${1:?usage: $0 OLD NEW}
new=${2:?usage: $0 OLD NEW}
rounds=${ROUNDS:-4}
if [[ -n "${WORK:-}" ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
for tool in valgrind taskset python3; do
  command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 2; }
done

# A puzzle set: the first $2 puzzles of a fill (arguments after $2) by OLD, one per line.
set_of() {
  local name=$1 take=$2
  shift 2
  if [[ ! -s "$work/$name.txt" ]]; then
    rm -f "$work/$name.db"
    "$old" fill --db "$work/$name.db" "$@" >/dev/null 2>&1
    "$old" export --db "$work/$name.db" --format txt --out "$work/$name.all" >/dev/null
    head -n "$take" "$work/$name.all" >"$work/$name.txt"
  fi
}
echo "# sets (made by $old)"
set_of classic 200 --count 3000 --tier expert --seed 9
set_of diagonal 60 --variant diagonal --count 1000 --tier expert --seed 9
set_of killer 240 --variant killer --count 240 --seed 5
wc -l "$work"/{classic,diagonal,killer}.txt | sed '$d'

# md5 of the stored columns of bank $1 (the rows a fill made, in order).
stored() {
  python3 - "$1" <<'PY'
import hashlib, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "select puzzle, score, cages, backtracks, guesses, tier, techniques, hardest_technique"
    " from puzzles order by id").fetchall()
print(hashlib.md5(repr(rows).encode()).hexdigest()[:8], len(rows))
PY
}

echo "# same output (md5: OLD NEW)"
for v in classic diagonal killer; do
  a=$("$old" rate --variant "$v" --json "$work/$v.txt" | md5sum | cut -c1-8)
  b=$("$new" rate --variant "$v" --json "$work/$v.txt" | md5sum | cut -c1-8)
  echo "rate $v: $a $b $([[ $a == "$b" ]] && echo same || echo DIFFERENT)"
done
for fill in "classic --count 1000" "diagonal --count 300" "killer --count 60"; do
  read -r v count n <<<"$fill"
  sums=()
  for bin in "$old" "$new"; do
    rm -f "$work/out.db"
    "$bin" fill --db "$work/out.db" --variant "$v" $count "$n" --tier expert --seed 9 >/dev/null 2>&1
    sums+=("$(stored "$work/out.db")")
  done
  same=$([[ "${sums[0]}" == "${sums[1]}" ]] && echo same || echo DIFFERENT)
  echo "fill $v expert: ${sums[0]% *} ${sums[1]% *} ($n puzzles) $same"
done

# Instructions of one command.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected/ {print $4}'
}
echo "# instructions (callgrind: OLD NEW NEW/OLD)"
while IFS='|' read -r label args; do
  # shellcheck disable=SC2086 # the arguments split on purpose
  a=$(instructions "$old" $args)
  # shellcheck disable=SC2086
  b=$(instructions "$new" $args)
  awk -v l="$label" -v a="$a" -v b="$b" 'BEGIN {printf "%-28s %14d %14d %.4f\n", l, a, b, b / a}'
done <<EOF
rate 200 classic experts|rate $work/classic.txt
rate 60 diagonal experts|rate --variant diagonal $work/diagonal.txt
generate 300 (digging)|generate --count 300 --seed 9
solve 240 killers|solve --variant killer $work/killer.txt
EOF

[[ "$rounds" -gt 0 ]] || exit 0
echo "# CPU seconds, one worker each, side by side (OLD NEW; cores swapped each round)"
for fill in "classic --count 1500" "diagonal --count 600" "killer --count 150"; do
  read -r v count n <<<"$fill"
  for r in $(seq 1 "$rounds"); do
    if ((r % 2)); then ca=0 cb=1; else ca=1 cb=0; fi
    rm -f "$work/a.db" "$work/b.db"
    for side in a b; do
      bin=$old core=$ca
      [[ $side == b ]] && bin=$new core=$cb
      (
        TIMEFORMAT='%U %S'
        { time taskset -c "$core" "$bin" fill --db "$work/$side.db" --threads 1 --variant "$v" \
          $count "$n" --tier expert --seed 9 >/dev/null 2>&1; } 2>"$work/$side.time"
      ) &
    done
    wait
    echo "$(awk '{print $1 + $2}' "$work/a.time") $(awk '{print $1 + $2}' "$work/b.time")"
  done | awk -v v="$v" '{a += $1; b += $2} END {printf "fill %-8s expert: %.2f s %.2f s ratio %.4f\n", v, a, b, b / a}'
done
