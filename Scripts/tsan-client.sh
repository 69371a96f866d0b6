#!/usr/bin/env bash
# A client's program under ThreadSanitizer, run as a production team's CI would run it: TSanClient (the bounded
# ingest service and the feed of TSanClient/Workload, through the public API only) built with `--sanitize=thread`,
# with no suppression of any kind, then run RUNS times for a few seconds each. A run fails when it exits non-zero: a
# violated result (status 1) or a ThreadSanitizer report (status 66).
#
#   Scripts/tsan-client.sh             # the self-check, then 30 runs (about 2 minutes, plus the build)
#   Scripts/tsan-client.sh 3           # the self-check and 3 runs: what CI runs
#   TSAN_CLIENT_SECONDS=5 Scripts/tsan-client.sh
#   TSAN_CLIENT_CONFIGURATION=release Scripts/tsan-client.sh   # an optimised build (its own build folder)
#
# The self-check comes first: the run must catch a race of the program's own. `--sabotage data-race` writes one plain
# Int from several tasks, and `--sabotage continuation-closure` makes the same writes inside the closure passed to
# `withUnsafeContinuation`; each run must stop with ThreadSanitizer's status 66.
#
# The debug build shares .build-tsan with Scripts/stress-ci.sh (the same flags), so that CI builds the library once.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-30}"
seconds="${TSAN_CLIENT_SECONDS:-2}"
configuration="${TSAN_CLIENT_CONFIGURATION:-debug}"
scratch=.build-tsan
[[ "$configuration" == debug ]] || scratch=".build-tsan-$configuration"
# SWIFT_BACKTRACE=enable=no keeps Swift's backtracer out of the way, should anybody add abort_on_error=1 (which
# otherwise hangs).
export SWIFT_BACKTRACE=enable=no
user_options="${TSAN_OPTIONS:-}"

step() { printf '\n== %s (%s)\n' "$1" "$(date +%H:%M:%S)"; }

step "build TSanClient ($configuration) with ThreadSanitizer"
build=(swift build -c "$configuration" --scratch-path "$scratch" --sanitize=thread)
"${build[@]}" --product TSanClient
binary="$("${build[@]}" --show-bin-path)/TSanClient"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

for sabotage in data-race continuation-closure; do
  step "self-check: --sabotage $sabotage must fail the run with ThreadSanitizer's status 66"
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

step "$runs runs of TSanClient, ${seconds} s each, under ThreadSanitizer"
failed=0
reported=0
reports=0
for run in $(seq 1 "$runs"); do
  set +e
  TSAN_OPTIONS="${user_options}" timeout 120 "$binary" --seconds "$seconds" --quiet >"$log" 2>&1
  status=$?
  set -e
  warnings="$(grep -c "WARNING: ThreadSanitizer" "$log" || true)"
  if [[ $status -ne 0 ]]; then failed=$((failed + 1)); fi
  if [[ $warnings -ne 0 ]]; then reported=$((reported + 1)); fi
  reports=$((reports + warnings))
  printf 'run %2d: status %d, %d report(s)\n' "$run" "$status" "$warnings"
  if [[ $status -ne 0 ]]; then
    # The start of the run's output: its violations, or its first report. (sed reads it all: `head` would stop grep
    # with SIGPIPE, which pipefail and set -e would turn into the script's own failure.)
    sed -n '1,60p' "$log"
  fi
done

step "done"
echo "TSanClient ($configuration): $runs runs of ${seconds} s: $failed exited non-zero, $reported with a" \
  "ThreadSanitizer report ($reports in all)"
if [[ $failed -ne 0 ]]; then
  exit 1
fi
