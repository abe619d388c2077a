#!/usr/bin/env bash
# One device call: the pinned small table on both engines, then group commit off/on turns of the write path
# (SQLite) while time allows. At most 8 files come back: bench.log, bench.stdout.txt, rows.md, services.log, groupcommit.md.
set -u
T0=$(date +%s)
ROOT_OUT=$OUT
echo "=== main: pinned small table, both engines ==="
OUT=$ROOT_OUT DEVBENCH_TIMEOUT=320 bash bench/device/run.sh
rm -f "$ROOT_OUT/rows.json"
echo "=== main done at $(( $(date +%s) - T0 )) s ==="
i=0
for gc in off on off on off on; do
  el=$(( $(date +%s) - T0 ))
  if [ $el -gt 390 ]; then echo "stop A/B at ${el}s"; break; fi
  d=/tmp/gc-$i
  mkdir -p $d
  OUT=$d DEVBENCH_ENGINES=sqlite BENCH_ENGINES=sqlite DATABASE_GROUP_COMMIT=$gc BENCH_ONLY='^POST /v2/inbox' DEVBENCH_TIMEOUT=70 bash bench/device/run.sh > $d/log 2>&1
  { echo "## DATABASE_GROUP_COMMIT=$gc (turn $i, at ${el}s)"; cat $d/rows.md 2>/dev/null || tail -20 $d/log; echo; } >> "$ROOT_OUT/groupcommit.md"
  i=$((i+1))
done
echo "=== all done at $(( $(date +%s) - T0 )) s ==="
