import AsyncSignals

// The AsyncSignals benchmarks (issue 8). One file per hot path, each an `add…Benchmarks()` that writes its
// workload once per library; see README.md for the workloads and how to run them.

var benchmark = Benchmark()
benchmark.addSubjectPumpingBenchmarks()  // B1, B2
benchmark.addSubjectChurnBenchmarks()  // B3
benchmark.addOperatorChainBenchmarks()  // B4, B4a, B4b, B4c, B5
benchmark.addFlattenMapBenchmarks()  // B6, W4a, B6b
benchmark.addSwitchToLatestBenchmarks()  // B7, B7b
benchmark.addCombineLatestBenchmarks()  // B8, B8b
benchmark.addFanOutBenchmarks()  // B9, B9b
benchmark.addSubscribeDisposeBenchmarks()  // B10, W2b
benchmark.addZipBenchmarks()  // B11, B11b
benchmark.addCompoundDisposableBenchmarks()  // B12, B12b, W6a, W6b
benchmark.addForAwaitBenchmarks()  // B13 (raw AsyncStream, AsyncChannel, by-hand bridge)
benchmark.addForAwaitInteropBenchmarks()  // B13 (signal.values, one row per buffering policy)
benchmark.addSubscriptionMemoryBenchmarks()  // B14
benchmark.addAllocationCountBenchmarks()  // B15, B15b
benchmark.addConcatBenchmarks()  // B16 (concat: a target of the issue without a row in its table)
benchmark.addIsolatedDeliveryBenchmarks()  // B17…B17e (issue 11: delivery into an actor, in bursts)

// A `create` body runs at once only where a scheduler is current (guarantee 5): in an app, on the main queue.
// The benchmark thread makes the immediate scheduler current instead, so that subscribing is synchronous and
// what is measured is the library's work, not a hop to the background queue.
let ranBenchmarks = benchmark
ImmediateScheduler.shared.performAsCurrent {
  ranBenchmarks.main()
}
