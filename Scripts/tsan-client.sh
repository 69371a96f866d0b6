#!/usr/bin/env bash
# A client's program under ThreadSanitizer, run as a production team's CI would run it: TSanClient (the bounded
# ingest service and the feed of TSanClient/Workload, through the public API only) built with `--sanitize=thread`,
# then run RUNS times for a few seconds each. A run fails when it exits non-zero: a violated result (status 1) or a
# ThreadSanitizer report (status 66).
#
#   Scripts/tsan-client.sh             # the self-check, then 30 runs of TSanClient (about 3 minutes, plus the build)
#   Scripts/tsan-client.sh 3           # the self-check and 3 runs: what CI runs
#   Scripts/tsan-client.sh --bare 30   # 30 runs of TSanClientBare, the same program without AsyncSignalsTSanSupport
#   TSAN_CLIENT_SECONDS=5 Scripts/tsan-client.sh
#
# TSanClient links AsyncSignalsTSanSupport, the README's answer to the toolchain's false report between
# `withUnsafeContinuation` and `UnsafeContinuation.resume` (README, "Sanitizers"). Each of its runs also counts how
# often that suppression matched (`print_suppressions=1`): the reports the same run would have had without it.
# `--bare` measures them directly: TSanClientBare does not link the product, so nothing is suppressed; its runs are
# counted, not judged, and the script exits 0.
#
# The self-check comes first: the suppression must hide no race of the program's own. `--sabotage data-race` writes
# one plain Int from several tasks, and `--sabotage continuation-closure` makes the same writes inside the closure
# passed to `withUnsafeContinuation`; with the product linked, each run must still stop with ThreadSanitizer's
# status 66.
#
# The build shares .build-tsan with Scripts/stress-ci.sh (the same flags), so that CI builds the library once.
set -euo pipefail
cd "$(dirname "$0")/.."

product=TSanClient
if [[ "${1:-}" == "--bare" ]]; then
  product=TSanClientBare
  shift
fi
runs="${1:-30}"
seconds="${TSAN_CLIENT_SECONDS:-2}"
scratch=.build-tsan
# SWIFT_BACKTRACE=enable=no keeps Swift's backtracer out of the way, should anybody add abort_on_error=1 (which
# otherwise hangs).
export SWIFT_BACKTRACE=enable=no
user_options="${TSAN_OPTIONS:-}"

step() { printf '\n== %s (%s)\n' "$1" "$(date +%H:%M:%S)"; }

step "build $product with ThreadSanitizer"
swift build --scratch-path "$scratch" --sanitize=thread --product "$product"
binary="$(swift build --scratch-path "$scratch" --sanitize=thread --show-bin-path)/$product"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

if [[ "$product" == TSanClient ]]; then
  for sabotage in data-race continuation-closure; do
    step "self-check: --sabotage $sabotage must fail the run with TSan's status 66, the suppression in place"
    set +e
    TSAN_OPTIONS="halt_on_error=1${user_options:+:$user_options}" timeout 120 "$binary" --seconds 1 \
      --sabotage "$sabotage" >"$log" 2>&1
    status=$?
    set -e
    if [[ $status -ne 66 ]] || ! grep -q "WARNING: ThreadSanitizer" "$log"; then
      cat "$log"
      echo "tsan-client: expected ThreadSanitizer to report the deliberate race ($sabotage, status 66), got $status" >&2
      exit 1
    fi
    echo "ok: reported, status 66"
  done
fi

step "$runs runs of $product, ${seconds} s each, under ThreadSanitizer"
failed=0
reported=0
reports=0
matched_runs=0
matched=0
for run in $(seq 1 "$runs"); do
  set +e
  TSAN_OPTIONS="print_suppressions=1${user_options:+:$user_options}" timeout 120 "$binary" --seconds "$seconds" \
    --quiet >"$log" 2>&1
  status=$?
  set -e
  warnings="$(grep -c "WARNING: ThreadSanitizer" "$log" || true)"
  # "ThreadSanitizer: Matched 2 suppressions (pid=…):" then one "2 race_top:withUnsafeContinuation" line per match.
  hits="$(sed -n 's/^ThreadSanitizer: Matched \([0-9]*\) suppressions.*/\1/p' "$log")"
  hits="${hits:-0}"
  if [[ $status -ne 0 ]]; then failed=$((failed + 1)); fi
  if [[ $warnings -ne 0 ]]; then reported=$((reported + 1)); fi
  if [[ $hits -ne 0 ]]; then matched_runs=$((matched_runs + 1)); fi
  reports=$((reports + warnings))
  matched=$((matched + hits))
  printf 'run %2d: status %d, %d report(s), %d suppressed\n' "$run" "$status" "$warnings" "$hits"
  if [[ $status -ne 0 ]]; then
    # The start of the run's output: its violations, or its first report. (sed reads it all: `head` would stop grep
    # with SIGPIPE, which pipefail and set -e would turn into the script's own failure.)
    grep -v "^ThreadSanitizer: Matched\|race_top:" "$log" | sed -n '1,60p'
  fi
done

step "done"
echo "$product: $runs runs of ${seconds} s: $failed exited non-zero, $reported with a ThreadSanitizer report" \
  "($reports in all); the suppression matched in $matched_runs runs ($matched reports)"
if [[ "$product" == TSanClient && $failed -ne 0 ]]; then
  exit 1
fi
