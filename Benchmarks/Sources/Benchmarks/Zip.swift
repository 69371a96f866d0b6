import AsyncSignals
import OpenCombine

// B11: zip of two subjects; the subscriber sums both halves of each pair.
//
// B11   one thread: left and right values sent alternately
// B11b  one producer thread per side, each sending its n values as fast as it can; the pairs are delivered
//       on whichever producer thread completes them. Per pair, wall-clock time from both starts to both ends.

extension Benchmark {
  mutating func addZipBenchmarks() {
    workload(
      "B11", "zip of two subjects, one thread (issue 13's W5a)", unit: "pair", size: 1_000_000,
      target: Target(atMost: 100, note: "zip per pair, one thread"), expected: { 2 &* triangle($0) })

    add("B11", .floor) { n in
      let sum = Accumulator()
      let subscriber: (Int, Int) -> Void = opaque { sum.add($0 &+ $1) }
      for value in 0..<n { subscriber(value, value) }
      return sum.value
    }
    add("B11", .asyncSignals) { n in
      let sum = Accumulator()
      let left = AsyncSignals.Subject<Int, Never>()
      let right = AsyncSignals.Subject<Int, Never>()
      let subscription = left.zip(with: right).subscribeNext { sum.add($0 &+ $1) }
      for value in 0..<n {
        left.sendNext(value)
        right.sendNext(value)
      }
      subscription.dispose()
      return sum.value
    }
    add("B11", .openCombine) { n in
      let sum = Accumulator()
      let left = PassthroughSubject<Int, Never>()
      let right = PassthroughSubject<Int, Never>()
      let subscription = left.zip(right).sink { sum.add($0 &+ $1) }
      for value in 0..<n {
        left.send(value)
        right.send(value)
      }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B11b", "zip of two subjects, one producer thread per side (issue 13's W5c)", unit: "pair", size: 1_000_000,
      target: Target(atMost: 300, note: "zip per pair, two threads"), expected: { 2 &* triangle($0) })

    add("B11b", .asyncSignals, threaded: true) { n in
      let sum = Accumulator()
      let left = AsyncSignals.Subject<Int, Never>()
      let right = AsyncSignals.Subject<Int, Never>()
      let subscription = left.zip(with: right).subscribeNext { sum.add($0 &+ $1) }
      let producers = [left, right].map { subject in
        StartedThread { for value in 0..<n { subject.sendNext(value) } }
      }
      for producer in producers { producer.join() }
      subscription.dispose()
      return sum.value
    }
    // OpenCombine's zip keeps each side's values in an array and removes pairs from its front: quadratic in
    // how far one producer runs ahead (here up to n), so its row runs at a capped size.
    add("B11b", .openCombine, threaded: true, maxSize: 20_000) { n in
      let sum = Accumulator()
      let left = PassthroughSubject<Int, Never>()
      let right = PassthroughSubject<Int, Never>()
      let subscription = left.zip(right).sink { sum.add($0 &+ $1) }
      let producers = [left, right].map { subject in
        let subject = UncheckedSendable(subject)
        return StartedThread { for value in 0..<n { subject.value.send(value) } }
      }
      for producer in producers { producer.join() }
      subscription.cancel()
      return sum.value
    }
  }
}

/// OpenCombine's subjects lock internally but are not marked `Sendable`.
struct UncheckedSendable<Value>: @unchecked Sendable {
  // guarded by: the wrapped value's own lock (OpenCombine's `PassthroughSubject` sends under its lock).
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
