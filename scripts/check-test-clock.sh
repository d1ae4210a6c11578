#!/usr/bin/env bash
# Fails, listing them, on absolute-time assertions in test/: a test that asserts how many
# milliseconds something took fails on a busy machine without a bug. Compare the same work at two sizes
# (test/helpers/scaling.ts), count work, or control the slow job (one that never ends, a short deadline
# for it alone). Seconds belong in bench/.
#
# Looked for:
#  - an elapsed time compared with a bound:  expect(Date.now() - t).toBeLessThan(...), performance.now(),
#    process.hrtime, or a variable named like a duration (elapsed, took, ms, Ms) in expect(...) with
#    toBeLessThan / toBeLessThanOrEqual;
#  - a start time taken for such a check: `const started = Date.now()` / performance.now() / hrtime.
# A line may carry `clock-ok: <reason>` to be let through (say why in the reason).
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(grep -rnE \
  -e 'expect\([^)]*(Date\.now\(\)|performance\.now\(\)|hrtime)[^)]*\)\.toBeLessThan' \
  -e 'expect\([^)]*\b(elapsed|took|duration|[a-zA-Z]*Ms|ms)\b[^)]*\)\.toBeLessThan' \
  -e '(started|start|t0|begin|wall0)\s*=\s*(Date\.now\(\)|performance\.now\(\)|process\.hrtime)' \
  test --include='*.ts' | grep -v 'clock-ok:' || true)
if [ -n "$found" ]; then
  echo "check-test-clock: absolute-time assertions in test/ (wall-clock figures belong in bench/; see scripts/check-test-clock.sh):" >&2
  echo "$found" >&2
  exit 1
fi
echo "check-test-clock: no absolute-time assertions in test/"
