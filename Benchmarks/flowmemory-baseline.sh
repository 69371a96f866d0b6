#!/usr/bin/env bash
# Builds FlowMemory against another checkout of the library — cf64ae7, before part 2 of flow control (issue 28) —
# and runs it with the arguments given, so that each shape's growth there can be shown beside this one's.
#
# The program is this package's Sources/FlowMemory, compiled with `-D FLOWMEMORY_CF64AE7` (or DEFINE) in a package
# of its own (made in WORK, outside both checkouts) that depends on CHECKOUT by path: nothing in CHECKOUT is changed.
#
# Usage: Benchmarks/flowmemory-baseline.sh CHECKOUT [FlowMemory arguments…]
#        e.g. git worktree add /tmp/cf64ae7 cf64ae7 && Benchmarks/flowmemory-baseline.sh /tmp/cf64ae7 --shape hop
#        WORK=/path (default /tmp/flowmemory-baseline) keeps the package and its build folder.
#        DEFINE=NAME (default FLOWMEMORY_CF64AE7) the condition FlowMemory compiles for the checkout's API, e.g.
#        DEFINE=FLOWMEMORY_23494CC WORK=/tmp/flowmemory-baseline-23494cc \
#          Benchmarks/flowmemory-baseline.sh /tmp/base-23494cc --shape actor
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
checkout="$(cd "${1:?usage: flowmemory-baseline.sh CHECKOUT [arguments…]}" && pwd)"
shift
work="${WORK:-/tmp/flowmemory-baseline}"
identity="$(basename "$checkout")"
define="${DEFINE:-FLOWMEMORY_CF64AE7}"

rm -rf "$work/Sources/FlowMemory"
mkdir -p "$work/Sources/FlowMemory"
cp "$here"/Sources/FlowMemory/*.swift "$work/Sources/FlowMemory/"
cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "FlowMemoryBaseline",
  dependencies: [.package(path: "$checkout")],
  targets: [
    .executableTarget(
      name: "FlowMemory",
      dependencies: [
        .product(name: "AsyncSignals", package: "$identity"),
        .product(name: "AsyncSignalsInterop", package: "$identity"),
      ],
      swiftSettings: [.define("$define")]
    )
  ],
  swiftLanguageModes: [.v6]
)
EOF
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift build -c release --package-path "$work" >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
if grep -E "Sources/FlowMemory/.*warning:" "$log"; then
  echo "flowmemory-baseline.sh: FlowMemory has warnings against $checkout" >&2
  exit 1
fi
"$(swift build -c release --package-path "$work" --show-bin-path)/FlowMemory" "$@"
