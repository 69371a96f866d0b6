import AsyncSignals
import OpenCombine

// B14: memory: the bytes that n live subscriptions to one subject hold, per subscription.
//
// Counted by the malloc interposer's byte tracking (malloc_usable_size of every block allocated and freed on
// the benchmark thread, so allocator rounding is included) while the n subscriptions are made; the array that
// keeps their disposables is reserved beforehand and not counted. The floor: a closure capturing the same
// accumulator, kept in an array.

extension Benchmark {
  mutating func addSubscriptionMemoryBenchmarks() {
    workload(
      "B14", "memory: live subscriptions to one subject (issue 13's W8a)", unit: "subscription", measure: .bytes,
      size: 100_000,
      target: Target(atMost: 200, note: "bytes per live subscription"), expected: { $0 })

    add("B14", .floor, .bytes({ n in
      let sum = Accumulator()
      var closures: [(Int) -> Void] = []
      closures.reserveCapacity(n)
      let (_, bytes) = Allocations.netBytes {
        for _ in 0..<n { closures.append(opaque { sum.add($0) }) }
      }
      for closure in closures { closure(1) }
      return (sum.value, Double(bytes) / Double(n))
    }))
    add("B14", .asyncSignals, .bytes({ n in
      let sum = Accumulator()
      let subject = AsyncSignals.Subject<Int, Never>()
      var subscriptions: [any Disposable] = []
      subscriptions.reserveCapacity(n)
      let (_, bytes) = Allocations.netBytes {
        for _ in 0..<n { subscriptions.append(subject.subscribeNext { sum.add($0) }) }
      }
      subject.sendNext(1)
      for subscription in subscriptions { subscription.dispose() }
      return (sum.value, Double(bytes) / Double(n))
    }))
    add("B14", .openCombine, .bytes({ n in
      let sum = Accumulator()
      let subject = PassthroughSubject<Int, Never>()
      var subscriptions: [AnyCancellable] = []
      subscriptions.reserveCapacity(n)
      let (_, bytes) = Allocations.netBytes {
        for _ in 0..<n { subscriptions.append(subject.sink { sum.add($0) }) }
      }
      subject.send(1)
      for subscription in subscriptions { subscription.cancel() }
      return (sum.value, Double(bytes) / Double(n))
    }))
  }
}
