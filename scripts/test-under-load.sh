#!/usr/bin/env bash
# The suite must pass on a busy machine. Runs `npm test` (extra arguments go to vitest:
# `scripts/test-under-load.sh test/x.test.ts` runs a subset) with two CPU-bound processes beside it,
# started here and always stopped here (also on failure and Ctrl-C). Exit status: the suite's.
set -uo pipefail
cd "$(dirname "$0")/.."
hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
  hogs=()
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT
trap 'stop_hogs; exit 143' TERM
for _ in 1 2; do
  yes > /dev/null &
  hogs+=("$!")
done
echo "test-under-load: two CPU-bound processes beside the suite (pids ${hogs[*]}); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
started=$(date +%s)
status=0
if [ $# -gt 0 ]; then npm test -- "$@" || status=$?; else npm test || status=$?; fi
echo "test-under-load: exit $status after $(( $(date +%s) - started )) s; load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
exit $status
