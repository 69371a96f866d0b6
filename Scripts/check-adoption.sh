#!/usr/bin/env bash
# Adopting the package as a new user would: a fresh clone of this repository's HEAD, a new package that depends on
# it with the README's install line (its `.package(url: …, branch: "main")`, the placeholder URL replaced by the
# clone's file URL, so that no network is needed, and the clone's HEAD as its `main`), and a program that imports
# only AsyncSignalsInterop and uses both modules' API: the README's `for await` example and an actor that reads a
# signal. The program is built with warnings as errors and run; its output is compared.
#
# Usage: Scripts/check-adoption.sh    (from anywhere; commits only: uncommitted changes are not in the clone)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/asyncsignals-adoption.XXXXXX")
trap 'rm -rf "$work"' EXIT

git clone --quiet "$PWD" "$work/AsyncSignals"
# The install line names the branch `main`: make the clone's HEAD that, whatever branch is checked out here.
git -C "$work/AsyncSignals" checkout --quiet -B main
mkdir -p "$work/Adopter/Sources/Adopter"

# The README's install line: the `.package(url:` line of the first swift block under "## Installation".
placeholder='https://github.com/OWNER/AsyncSignals.git'
install=$(awk '/^## Installation/ { in_section = 1 } in_section && /^```swift/ { block = 1; next }
  block && /^```/ { exit } block && /\.package\(url:/ { print }' README.md)
if [ -z "$install" ] || ! grep -qF "$placeholder" <<<"$install"; then
  echo "check-adoption: README.md has no install line .package(url: \"$placeholder\", …) under '## Installation'" >&2
  exit 1
fi
install=${install//"$placeholder"/"file://$work/AsyncSignals"}

cat >"$work/Adopter/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Adopter",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    // The README's install line; the clone stands in for the placeholder URL.
$install
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
# No shared dependency cache: each run's clone has a URL of its own, which the cache would keep forever.
swift build --package-path "$work/Adopter" --disable-dependency-cache -Xswiftc -warnings-as-errors 2>&1 | tail -n 3
actual=$(swift run --skip-build --package-path "$work/Adopter" Adopter)
if [ "$actual" != "$expected" ]; then
  printf 'check-adoption: unexpected output:\n%s\n--- expected:\n%s\n' "$actual" "$expected" >&2
  exit 1
fi
echo "check-adoption: a new package importing only AsyncSignalsInterop builds and runs"
