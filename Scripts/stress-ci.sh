#!/usr/bin/env bash
# The short Stress pass for CI (issue 6): every scenario for a couple of seconds, built with ThreadSanitizer.
# Fails on any violated invariant, any deadlock (the watchdog) and any TSan report. Before the pass it proves
# that a TSan report does fail the run: `--sabotage data-race` writes to one variable from every thread
# without a lock, and the run must stop with TSan's exit status, 66.
#
#   Scripts/stress-ci.sh            # 2 s per scenario (about a minute, plus the build)
#   STRESS_SECONDS=5 Scripts/stress-ci.sh
#
# The TSan build has its own scratch path, so that it does not overwrite (and force a rebuild of) the plain
# debug build in .build.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${STRESS_SECONDS:-2}"
scratch=.build-tsan
# halt_on_error: stop at the first report (exit status 66). SWIFT_BACKTRACE=enable=no keeps Swift's
# backtracer out of the way, should anybody add abort_on_error=1 (which otherwise hangs).
export TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export SWIFT_BACKTRACE=enable=no

step() { printf '\n== %s (%s)\n' "$1" "$(date +%H:%M:%S)"; }

step "build Stress with ThreadSanitizer"
swift build --scratch-path "$scratch" --sanitize=thread --product Stress
stress="$(swift build --scratch-path "$scratch" --sanitize=thread --show-bin-path)/Stress"

step "self-check: a data race must fail the run with TSan's status 66"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
"$stress" --scenario ActionDisposable --iterations 1 --sabotage data-race --quiet >"$log" 2>&1
status=$?
set -e
if [[ $status -ne 66 ]] || ! grep -q "WARNING: ThreadSanitizer" "$log"; then
  cat "$log"
  echo "stress-ci: expected ThreadSanitizer to report the deliberate data race (status 66), got status $status" >&2
  exit 1
fi
echo "ok: TSan reported the deliberate race and the run exited with 66"

step "self-check: ObservationCount's broken twin leaks a main-actor job's count; the run must fail (status 1)"
# Not in the test process's self-check (Tests/StressTests): the count is process-wide.
set +e
"$stress" --scenario ObservationCount --sabotage ObservationCount --iterations 2 --quiet >"$log" 2>&1
status=$?
set -e
if [[ $status -ne 1 ]] || ! grep -q "VIOLATION \[ObservationCount\]" "$log"; then
  cat "$log"
  echo "stress-ci: expected ObservationCount's twin to fail the run (status 1), got status $status" >&2
  exit 1
fi
echo "ok: the twin's leaked count was caught"

step "every scenario, ${seconds} s each, under ThreadSanitizer"
"$stress" --seconds "$seconds" --quiet

step "done"
