// swift-tools-version: 6.0
import PackageDescription

// AsyncSignals depends on the Swift toolchain only: Foundation, Dispatch, Synchronization and the C library.
let package = Package(
  name: "AsyncSignals",
  products: [
    .library(name: "AsyncSignals", targets: ["AsyncSignals"])
  ],
  targets: [
    .target(name: "AsyncSignals"),
    // Hammers the lock-protected parts from many threads: `swift run --sanitize=thread Stress`.
    .executableTarget(name: "Stress", dependencies: ["AsyncSignals"], path: "Stress"),
    .testTarget(name: "AsyncSignalsTests", dependencies: ["AsyncSignals"]),
    // The Stress harness's self-check: each scenario fails against a deliberately broken twin.
    .testTarget(name: "StressTests", dependencies: ["Stress"]),
  ],
  swiftLanguageModes: [.v6]
)
