#!/usr/bin/env bash
# Adopting the package as a new user would: a fresh clone of this repository's HEAD, a new package that depends on
# it the way the README's install line does (by path here, in place of the URL, so that no network is needed),
# and a program that imports only AsyncSignalsInterop and uses both modules' API: the README's `for await` example
# and an actor that reads a signal. The program is built with warnings as errors and run; its output is compared.
#
# Usage: Scripts/check-adoption.sh    (from anywhere; commits only: uncommitted changes are not in the clone)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/asyncsignals-adoption.XXXXXX")
trap 'rm -rf "$work"' EXIT

git clone --quiet "$PWD" "$work/AsyncSignals"
mkdir -p "$work/Adopter/Sources/Adopter"

cat >"$work/Adopter/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Adopter",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    // A user writes .package(url: "…/AsyncSignals.git", from: "0.1.0"); the clone stands in for the URL.
    .package(path: "../AsyncSignals")
  ],
  targets: [
    .executableTarget(
      name: "Adopter", dependencies: [.product(name: "AsyncSignalsInterop", package: "AsyncSignals")])
  ],
  swiftLanguageModes: [.v6]
)
MANIFEST

# The README's example, as it stands there (the first swift block under "## Example"), and a program around it.
awk '/^## Example/ { in_section = 1 } in_section && /^```swift/ { block = 1; next } block && /^```/ { exit }
  block { print }' README.md >"$work/Adopter/Sources/Adopter/ReadmeExample.swift"
grep -q 'func readTwo' "$work/Adopter/Sources/Adopter/ReadmeExample.swift" || {
  echo "check-adoption: README.md has no example defining readTwo() under '## Example'" >&2
  exit 1
}

cat >"$work/Adopter/Sources/Adopter/Adopter.swift" <<'PROGRAM'
import AsyncSignalsInterop  // the only import: Signal, Subject and the operators come with it

actor Tally {
  var total = 0
  func add(_ numbers: Signal<Int, Never>) async {
    for await number in numbers.values { total += number }  // actor state, no `await` needed
  }
}

@main
struct Adopter {
  static func main() async {
    await readTwo()

    let tally = Tally()
    let numbers = Subject<Int, Never>()
    async let adding: Void = tally.add(numbers.take(4))
    while numbers.subscriberCount == 0 { await Task.yield() }
    for number in 1...4 { numbers.sendNext(number) }
    await adding
    print("total", await tally.total)
  }
}
PROGRAM

expected=$'reading 10\nreading 20\nsensor stopped\ntotal 10'
swift build --package-path "$work/Adopter" -Xswiftc -warnings-as-errors 2>&1 | tail -n 3
actual=$(swift run --skip-build --package-path "$work/Adopter" Adopter)
if [ "$actual" != "$expected" ]; then
  printf 'check-adoption: unexpected output:\n%s\n--- expected:\n%s\n' "$actual" "$expected" >&2
  exit 1
fi
echo "check-adoption: a new package importing only AsyncSignalsInterop builds and runs"
