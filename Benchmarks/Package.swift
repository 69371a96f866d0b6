// swift-tools-version: 6.0
import PackageDescription

// The benchmarks of AsyncSignals against other Swift reactive and async libraries (issue 8).
//
// A separate package, so that the library itself keeps zero dependencies. Every library is its own module, as a
// user gets it, and the workloads live in the `Benchmarks` executable: what crosses the module boundary (and
// whether it is specialised there) is measured as it is in an app.
//
//   swift run -c release --package-path Benchmarks Benchmarks            # the full run
//   swift run -c release --package-path Benchmarks Benchmarks --smoke    # tiny sizes, for CI
let package = Package(
  name: "AsyncSignalsBenchmarks",
  platforms: [.macOS(.v15)],  // at least the root package's (see ../Package.swift)
  dependencies: [
    .package(name: "AsyncSignals", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
  ],
  targets: [
    .executableTarget(
      name: "Benchmarks",
      dependencies: [
        .product(name: "AsyncSignals", package: "AsyncSignals"),
        .product(name: "AsyncSignalsInterop", package: "AsyncSignals"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        "AllocationCounter",
      ]
    ),
    // A malloc interposer (Linux): counts the allocations of the calling thread, and their bytes on request.
    .target(name: "AllocationCounter"),
    // Issue 28: the peak memory of the user's shapes fed faster than their `.bounded(4)` loop reads — a straight
    // pipeline, one with a `deliver(on:)` hop, one through `flattenMap(maxConcurrent: 4)`, a subject fed by
    // `await send` from a task and by `sendNext` from a thread — and, since flow control part 3, the same source
    // into a slow actor with `.bounded(64)` and into the main actor with `.bufferingNewest(1)`, at 1,000,000 and
    // 3,000,000 lines (`swift run -c release --package-path Benchmarks FlowMemory`; flowmemory-baseline.sh builds it
    // against cf64ae7 or 23494cc).
    .executableTarget(
      name: "FlowMemory",
      dependencies: [
        .product(name: "AsyncSignals", package: "AsyncSignals"),
        .product(name: "AsyncSignalsInterop", package: "AsyncSignals"),
      ]
    ),
    // What a bound costs: wall and CPU time and context switches per record of the user's shapes read through
    // `values(bufferingPolicy: .bounded(64))`, against the unbounded `values`, the same threads joined by blocking
    // queues by hand, AsyncStream and AsyncChannel; quiet and beside a busy process; plus latency and parallelism
    // (`swift run -c release --package-path Benchmarks FlowCost`; flowcost-baseline.sh builds it against 23494cc).
    .executableTarget(
      name: "FlowCost",
      dependencies: [
        .product(name: "AsyncSignals", package: "AsyncSignals"),
        .product(name: "AsyncSignalsInterop", package: "AsyncSignals"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
