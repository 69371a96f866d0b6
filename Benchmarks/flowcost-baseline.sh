#!/usr/bin/env bash
# Builds FlowCost against another checkout of the library — 23494cc, say, before a change to flow control — and runs
# it with the arguments given, so that its rows can be set beside this checkout's (flowcost-compare.sh does so).
#
# The program is this package's Sources/FlowCost, unchanged (public API only), in a package of its own made in WORK,
# outside both checkouts, that depends on CHECKOUT by path and on swift-async-algorithms as this package does: nothing
# in CHECKOUT is changed.
#
# Usage: Benchmarks/flowcost-baseline.sh CHECKOUT [FlowCost arguments…]
#        e.g. git worktree add /tmp/base-23494cc 23494cc && Benchmarks/flowcost-baseline.sh /tmp/base-23494cc --smoke
#        Benchmarks/flowcost-baseline.sh CHECKOUT --bin-path    builds, then prints the binary's path instead
#        WORK=/path (default /tmp/flowcost-baseline-NAME, NAME the checkout's folder) keeps the package and its build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
checkout="$(cd "${1:?usage: flowcost-baseline.sh CHECKOUT [arguments…]}" && pwd)"
shift
identity="$(basename "$checkout")"
work="${WORK:-/tmp/flowcost-baseline-$identity}"

rm -rf "$work/Sources/FlowCost"
mkdir -p "$work/Sources/FlowCost"
cp "$here"/Sources/FlowCost/*.swift "$work/Sources/FlowCost/"
# The same swift-async-algorithms as this package's Package.swift.
algorithms="$(grep -o '"https://github.com/apple/swift-async-algorithms", exact: "[^"]*"' "$here/Package.swift")"
cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "FlowCostBaseline",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: "$checkout"),
    .package(url: $algorithms),
  ],
  targets: [
    .executableTarget(
      name: "FlowCost",
      dependencies: [
        .product(name: "AsyncSignals", package: "$identity"),
        .product(name: "AsyncSignalsInterop", package: "$identity"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
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
if grep -E "Sources/FlowCost/.*warning:" "$log"; then
  echo "flowcost-baseline.sh: FlowCost has warnings against $checkout" >&2
  exit 1
fi
bin="$(swift build -c release --package-path "$work" --show-bin-path)/FlowCost"
if [ "${1:-}" = "--bin-path" ]; then
  echo "$bin"
else
  "$bin" "$@"
fi
