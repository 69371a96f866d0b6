#!/usr/bin/env bash
# Builds the Benchmarks package in release mode and runs every workload once at tiny sizes (`--smoke`): checks
# that everything compiles without warnings, runs, and that all rows of a workload agree on their checksum; runs
# FlowMemory's shapes at 2,000 lines; and FlowCost's shapes at 2,000 records, quiet and beside its busy neighbour
# (every row must receive every value and agree on the checksum; overflowCount must be exact).
# Timings printed in this mode mean nothing and are never asserted.
#
# Usage: Benchmarks/smoke.sh                 (from anywhere; builds in Benchmarks/.build)
#        SCRATCH=/path Benchmarks/smoke.sh   (another build folder, e.g. to time a build from clean)
set -euo pipefail
cd "$(dirname "$0")"

scratch=(--scratch-path "${SCRATCH:-.build}")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
if ! swift build -c release "${scratch[@]}" --product Benchmarks >"$log" 2>&1 ||
  ! swift build -c release "${scratch[@]}" --product FlowMemory >>"$log" 2>&1 ||
  ! swift build -c release "${scratch[@]}" --product FlowCost >>"$log" 2>&1; then
  cat "$log"
  exit 1
fi
built=$(date +%s)
# Warnings in this package's own sources (dependencies' warnings are theirs).
if grep -E "Benchmarks/Sources/.*warning:" "$log"; then
  echo "smoke.sh: the Benchmarks package has warnings" >&2
  exit 1
fi
bin="$(swift build -c release "${scratch[@]}" --show-bin-path)"
"$bin/Benchmarks" --smoke
# FlowMemory's shapes, tiny: they run and end (their memory means nothing at this size).
for shape in straight hop maxConcurrent await thread actor mainActor; do "$bin/FlowMemory" --shape "$shape" --lines 2000; done
# FlowCost's shapes, tiny: correctness only (their timings mean nothing at this size).
"$bin/FlowCost" --smoke
echo "smoke.sh: built in $((built - start)) s, ran in $(($(date +%s) - built)) s"
