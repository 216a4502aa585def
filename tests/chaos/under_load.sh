#!/usr/bin/env bash
# Run a test N times in a row beside a CPU load: two busy loops (one per
# core of the machines this runs on), started here and stopped here by pid.
# A test that synchronises on a sleep fails here first; one that waits on
# what it can observe passes every time.  make chaos runs test_store.py so.
#   tests/chaos/under_load.sh N TEST...
# Prints one line per run and ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
runs=${1:?usage: under_load.sh N TEST...}
shift
loops=()
stop_loops() {
  for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${loops[@]}"; do wait "$pid" 2>/dev/null; done
}
trap stop_loops EXIT
for _ in 1 2; do
  (while :; do :; done) &
  loops+=($!)
done
passed=0 failed=0
for ((i = 1; i <= runs; i++)); do
  for t in "$@"; do
    start=$(date +%s)
    if prove -f "$t" >"${TMPDIR:-/tmp}/under-load-$$.log" 2>&1; then
      passed=$((passed + 1))
      echo "# run $i: $t passed ($(($(date +%s) - start)) s, beside two busy loops)"
    else
      failed=$((failed + 1))
      echo "# run $i: $t FAILED:"
      grep -E '^not ok|^#' "${TMPDIR:-/tmp}/under-load-$$.log" | head -20
    fi
  done
done
rm -f "${TMPDIR:-/tmp}/under-load-$$.log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
