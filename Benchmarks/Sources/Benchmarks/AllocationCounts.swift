import AsyncSignals
import OpenCombine

// B15: allocations, counted by the malloc interposer (Sources/AllocationCounter) on the benchmark thread.
//
// B15   per subscribe + dispose of a cold single-value signal (B10's loop)
// B15b  per event through source → map → filter → subscriber (B4a's loop; subscription set-up included, so
//       the figure is (set-up allocations) / n: zero per event shows as 0.00)
//
// Every other table shows allocations per operation too; these two carry the targets.

extension Benchmark {
  mutating func addAllocationCountBenchmarks() {
    workload(
      "B15", "allocations per subscribe + dispose", unit: "subscription", measure: .allocations, size: 10_000,
      smokeSize: 100, target: Target(atMost: 3, note: "allocations per subscribe + dispose"), expected: { $0 })

    add("B15", .floor) { n in
      let sum = Accumulator()
      for _ in 0..<n {
        let subscriber: (Int) -> Void = opaque { sum.add($0) }
        subscriber(1)
      }
      return sum.value
    }
    add("B15", .asyncSignals, variant: "return") { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.return(1)
      for _ in 0..<n { signal.subscribeNext { sum.add($0) }.dispose() }
      return sum.value
    }
    add("B15", .asyncSignals, variant: "create") { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.create { subscriber in
        subscriber.sendNext(1)
        subscriber.sendCompleted()
        return nil
      }
      for _ in 0..<n { signal.subscribeNext { sum.add($0) }.dispose() }
      return sum.value
    }
    // Through an operator, with a completion closure: the closures' observer checks, before a terminal event, a flag
    // that the subscription's `dispose()` sets (guarantee 2): a flag and a disposable around the chain's, each time.
    add("B15", .asyncSignals, variant: "return.map, next + completed") { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.return(1).map { $0 }
      for _ in 0..<n { signal.subscribeNext({ sum.add($0) }, completed: {}).dispose() }
      return sum.value
    }
    add("B15", .openCombine, variant: "Just") { n in
      let sum = Accumulator()
      let publisher = Just(1)
      for _ in 0..<n { publisher.sink { sum.add($0) }.cancel() }
      return sum.value
    }

    workload(
      "B15b", "allocations per event through map + filter", unit: "event", measure: .allocations,
      size: 100_000, target: Target(atMost: 0.01, note: "no allocation per event"), expected: { triangle($0) &+ $0 })

    add("B15b", .floor) { n in
      let sum = Accumulator()
      let transform: (Int) -> Int = opaque { $0 &+ 1 }
      let isIncluded: (Int) -> Bool = opaque { $0 >= 0 }
      for value in 0..<n {
        let mapped = transform(value)
        if isIncluded(mapped) { sum.add(mapped) }
      }
      return sum.value
    }
    add("B15b", .asyncSignals, variant: "subject") { n in
      let sum = Accumulator()
      let subject = AsyncSignals.Subject<Int, Never>()
      let subscription = subject.map { $0 &+ 1 }.filter { $0 >= 0 }.subscribeNext { sum.add($0) }
      for value in 0..<n { subject.sendNext(value) }
      subscription.dispose()
      return sum.value
    }
    add("B15b", .asyncSignals, variant: "create") { n in
      let sum = Accumulator()
      let subscription = Signal<Int, Never>.create { subscriber in
        for value in 0..<n { subscriber.sendNext(value) }
        subscriber.sendCompleted()
        return nil
      }
      .map { $0 &+ 1 }.filter { $0 >= 0 }.subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("B15b", .openCombine, variant: "subject") { n in
      let sum = Accumulator()
      let subject = PassthroughSubject<Int, Never>()
      let subscription = subject.map { $0 &+ 1 }.filter { $0 >= 0 }.sink { sum.add($0) }
      for value in 0..<n { subject.send(value) }
      subscription.cancel()
      return sum.value
    }
  }
}
