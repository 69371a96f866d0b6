// swift-tools-version: 6.0
import PackageDescription

// AsyncSignals depends on the Swift toolchain only: Foundation, Dispatch, Synchronization and the C library.
let package = Package(
  name: "AsyncSignals",
  products: [
    .library(name: "AsyncSignals", targets: ["AsyncSignals"]),
    // Structured concurrency over signals: `for await`, async functions, awaiting results, cancellation.
    .library(name: "AsyncSignalsInterop", targets: ["AsyncSignalsInterop"]),
  ],
  targets: [
    .target(name: "AsyncSignals"),
    .target(name: "AsyncSignalsInterop", dependencies: ["AsyncSignals"], path: "Sources/Interop"),
    .testTarget(name: "AsyncSignalsTests", dependencies: ["AsyncSignals"]),
    .testTarget(
      name: "AsyncSignalsInteropTests", dependencies: ["AsyncSignalsInterop", "AsyncSignals"]),
  ],
  swiftLanguageModes: [.v6]
)
