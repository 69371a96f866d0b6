#!/usr/bin/env bash
# Builds the Benchmarks package in release mode and runs every workload once at tiny sizes (`--smoke`): checks
# that everything compiles without warnings, runs, and that all rows of a workload agree on their checksum.
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
if ! swift build -c release "${scratch[@]}" --product Benchmarks >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
built=$(date +%s)
# Warnings in this package's own sources (dependencies' warnings are theirs).
if grep -E "Benchmarks/Sources/.*warning:" "$log"; then
  echo "smoke.sh: the Benchmarks package has warnings" >&2
  exit 1
fi
"$(swift build -c release "${scratch[@]}" --show-bin-path)/Benchmarks" --smoke
echo "smoke.sh: built in $((built - start)) s, ran in $(($(date +%s) - built)) s"
