// swift-tools-version: 6.2
import PackageDescription

// AsyncSignals depends on the Swift toolchain only: Foundation, Dispatch, Synchronization and the C library.
let package = Package(
  name: "AsyncSignals",
  // What the code needs, not a wish: Synchronization's `Atomic` (every disposable, sink and subject), the
  // typed-failure `AsyncSequence` (`next(isolation:)`, `AsyncSequence<Element, Failure>`) and
  // `SerialExecutor.checkIsolated()` (QueueScheduler as an actor's executor) first shipped in these releases.
  // Lowering it would mean replacing `Atomic` by a lock in every hot path; see README, "Platforms".
  // Linux has no minimum here: any Linux with a Swift 6.2 toolchain (6.2: `weak let`, SE-0481).
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "AsyncSignals", targets: ["AsyncSignals"]),
    // Structured concurrency over signals: `for await`, async functions, awaiting results, cancellation.
    .library(name: "AsyncSignalsInterop", targets: ["AsyncSignalsInterop"]),
  ],
  targets: [
    .target(name: "AsyncSignals"),
    .target(name: "AsyncSignalsInterop", dependencies: ["AsyncSignals"], path: "Sources/Interop"),
    // Hammers the lock-protected parts from many threads: `swift run --sanitize=thread Stress`.
    .executableTarget(name: "Stress", dependencies: ["AsyncSignals", "AsyncSignalsInterop"], path: "Stress"),
    // A client's program under ThreadSanitizer, through the public API only: bounded hops, flattenMap into async
    // work, a subject fed by `await send` (Scripts/tsan-client.sh).
    .target(name: "TSanClientWorkload", dependencies: ["AsyncSignalsInterop"], path: "TSanClient/Workload"),
    .executableTarget(name: "TSanClient", dependencies: ["TSanClientWorkload"], path: "TSanClient/Program"),
    .testTarget(name: "AsyncSignalsTests", dependencies: ["AsyncSignals"]),
    .testTarget(
      name: "AsyncSignalsInteropTests", dependencies: ["AsyncSignalsInterop", "AsyncSignals"]),
    // The Stress harness's self-check: each scenario fails against a deliberately broken twin.
    .testTarget(name: "StressTests", dependencies: ["Stress"]),
  ],
  swiftLanguageModes: [.v6]
)
