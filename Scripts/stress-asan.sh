#!/usr/bin/env bash
# The Stress pass under AddressSanitizer: the scenarios whose values go through a subject, a two-input zip or a
# bounded loop's ring, for a couple of seconds each. A subject's sinks call their observer without retaining it and rely on the subject's turn
# lock, and on the hand-off to the thread in the turn, to release it only once no call is running
# (Subjects/SubjectStorage.swift); `zip(with:)` does the same with the turn of the thread that delivers its pairs
# (Operators/Zip/ZipPairStorage.swift). Get that wrong and an observer is freed under a call, which ThreadSanitizer
# need not report and AddressSanitizer does. Fails on any violated invariant, any deadlock (the watchdog) and any
# ASan or LeakSanitizer report. Before the pass it proves that the pass can fail: the broken twins of SubjectTurn
# and ZipTurn (`--sabotage SubjectTurn`, `--sabotage ZipTurn`) free an observer while a call through it is
# running, and ASan must report the heap-use-after-free.
#
#   Scripts/stress-asan.sh                                   # 2 s per scenario (about 40 s, plus the build)
#   STRESS_SECONDS=5 Scripts/stress-asan.sh
#   STRESS_ASAN_CONFIGURATION=debug Scripts/stress-asan.sh   # the unoptimised build instead
#
# Optimised by default: that is the build in which a sink calls its observer unretained. Unoptimised code retains
# the observer's closure around the call, so a broken hand-off would free the observer only after the call had
# returned, and nothing would read freed memory for ASan to catch. The ASan build has its own scratch path, so
# that it does not overwrite (and force a rebuild of) the other builds.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${STRESS_SECONDS:-2}"
configuration="${STRESS_ASAN_CONFIGURATION:-release}"
scratch=.build-asan
# The scenarios that send into a Subject, a ReplaySubject or a multicast connection's subject, and ZipTurn (a
# zip's turn); those through a `.bounded(n)` loop's ring, whose places are raw memory that the loop moves values
# out of and frees when it ends (issue 29, item 5); and those of bounded delivery into an actor, whose queue a job
# swaps out, carries over a spent budget and drops from the front of, while disposal releases it and wakes paused
# walks that are then freed. `--list` shows them.
scenarios=(
  SubjectTurn SubjectAttach Subject ReplaySubject SubjectEcho SubscriberChurn ReplayDispose SerialDelivery
  TerminalRace Leaks SlowSubscriber Connect Autoconnect Share ZipTurn BoundedRing BoundedBuffering BoundedCancellation
  BoundedActor BoundedActorResume BoundedActorBacklog
)
# The scenarios whose broken twin frees an observer mid-call (SelfCheckTests.useAfterFreeTwins).
twins=(SubjectTurn ZipTurn)
# exitcode=66: a report ends the run with the status a TSan report has in stress-ci.sh, told apart from a violated
# invariant (1). ASan stops at its first report by default. LeakSanitizer stays on (ASan's default on Linux): the
# Swift runtime leaves nothing it reports, and a leaked observer is what this pass looks for; should a toolchain
# report its own allocations, suppress those by name (LSAN_OPTIONS=suppressions=FILE) rather than turning it off.
# SWIFT_BACKTRACE=enable=no keeps Swift's backtracer out of ASan's way.
export ASAN_OPTIONS="exitcode=66${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export SWIFT_BACKTRACE=enable=no

step() { printf '\n== %s (%s)\n' "$1" "$(date +%H:%M:%S)"; }

step "build Stress with AddressSanitizer ($configuration)"
# gold warns about every local symbol of the ASan runtime ("Cannot export local symbol '__asan_…'"): noise.
swift build -c "$configuration" --scratch-path "$scratch" --sanitize=address --product Stress 2>&1 \
  | { grep -v "Cannot export local symbol '__asan" || true; }
stress="$(swift build -c "$configuration" --scratch-path "$scratch" --sanitize=address --show-bin-path)/Stress"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for twin in "${twins[@]}"; do
  step "self-check: $twin's broken twin frees an observer mid-call; ASan must report it (status 66)"
  set +e
  "$stress" --scenario "$twin" --sabotage "$twin" --seconds 20 --seed 1 --quiet >"$log" 2>&1
  status=$?
  set -e
  if [[ $status -ne 66 ]] || ! grep -q "ERROR: AddressSanitizer: heap-use-after-free" "$log"; then
    cat "$log"
    echo "stress-asan: expected AddressSanitizer to report $twin's twin's heap-use-after-free (status 66), got" \
      "status $status" >&2
    exit 1
  fi
  echo "ok: ASan reported $twin's twin's heap-use-after-free and the run exited with 66"
done

step "the subject and zip-turn scenarios, ${seconds} s each, under AddressSanitizer"
selection=()
for scenario in "${scenarios[@]}"; do selection+=(--scenario "$scenario"); done
"$stress" "${selection[@]}" --seconds "$seconds" --quiet

step "done"
