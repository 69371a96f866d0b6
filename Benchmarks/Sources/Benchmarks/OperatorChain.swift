import AsyncSignals
import OpenCombine

// B4, B5: plain forwarding operators. Every map adds one, every filter keeps values ≥ 0 (all of them), so each
// event crosses every operator and the checksum tells that it did.
//
// B4   cold source → 6 × (map + filter) → subscriber, pumping
// B4a  cold source → map → filter → subscriber (the "source → map → filter → sink", cold)
// B4b  subject → map → filter → subscriber (the same, hot)
// B4c  cold source → subscriber, no operator: B4 minus B4c, over 12, is the cost of one operator
// B5   building the 12-operator chain on a single-value signal, subscribing, one event, disposing
//
// The cold sources: AsyncSignals' `Signal.create` with a loop, the way its users write one; OpenCombine's
// `(0..<n).publisher`, erased, because `Publishers.Sequence` (like `Just`) has eager overloads of `map` and
// `filter` that would compute arrays instead of forwarding events (Combine's too). Erasing costs one box at
// subscription, nothing per event.

/// A cold signal that sends 0..<n and completes.
private func counting(_ n: Int) -> Signal<Int, Never> {
  Signal<Int, Never>.create { subscriber in
    for value in 0..<n { subscriber.sendNext(value) }
    subscriber.sendCompleted()
    return nil
  }
}

/// A cold publisher that sends 0..<n and finishes.
private func countingPublisher(_ n: Int) -> AnyPublisher<Int, Never> {
  (0..<n).publisher.eraseToAnyPublisher()
}

/// The floor: the same closures, called as closures, in a loop.
private func floorChain(_ n: Int, stages: Int, start: Int = 0) -> Int {
  let sum = Accumulator()
  let transform: (Int) -> Int = opaque { $0 &+ 1 }
  let isIncluded: (Int) -> Bool = opaque { $0 >= 0 }
  let subscriber: (Int) -> Void = opaque { sum.add($0) }
  values: for value in start..<(start + n) {
    var value = value
    for _ in 0..<stages {
      value = transform(value)
      guard isIncluded(value) else { continue values }
    }
    subscriber(value)
  }
  return sum.value
}

// One map + filter stage, written as a user would inline it; a function only so that the type checker handles
// six of them in one expression. Both are specialised in this module where the library allows it.
extension Signal where Value == Int {
  fileprivate func mapFilter() -> Signal<Int, Failure> {
    map { $0 &+ 1 }.filter { $0 >= 0 }
  }
}

extension Publisher where Output == Int {
  fileprivate func mapFilter() -> Publishers.Filter<Publishers.Map<Self, Int>> {
    map { $0 &+ 1 }.filter { $0 >= 0 }
  }
}

extension Benchmark {
  mutating func addOperatorChainBenchmarks() {
    workload(
      "B4", "cold source → 6 × (map + filter) → subscriber, pumping", unit: "event", size: 100_000,
      target: Target(atMost: 50, note: "≤ 20 for source → map → filter → sink, + ≤ 3 for each further operator"),
      expected: { triangle($0) &+ 6 &* $0 })

    add("B4", .floor) { n in floorChain(n, stages: 6) }
    add("B4", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = counting(n)
        .mapFilter().mapFilter().mapFilter().mapFilter().mapFilter().mapFilter()
        .subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("B4", .openCombine) { n in
      let sum = Accumulator()
      let subscription = countingPublisher(n)
        .mapFilter().mapFilter().mapFilter().mapFilter().mapFilter().mapFilter()
        .sink { sum.add($0) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B4a", "cold source → map → filter → subscriber, pumping (issue 13's W1b)", unit: "event", size: 1_000_000,
      target: Target(atMost: 20, note: "source → map → filter → sink, cold"), expected: { triangle($0) &+ $0 })

    add("B4a", .floor) { n in floorChain(n, stages: 1) }
    add("B4a", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = counting(n).map { $0 &+ 1 }.filter { $0 >= 0 }.subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("B4a", .openCombine) { n in
      let sum = Accumulator()
      let subscription = countingPublisher(n).map { $0 &+ 1 }.filter { $0 >= 0 }.sink { sum.add($0) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "W1a", "cold signal from a Swift sequence → map → filter → subscriber (issue 13's W1a)", unit: "element",
      size: 1_000_000, target: Target(atMost: 40, note: "issue 13: W1a ≤ 40"), expected: { triangle($0) &+ $0 })

    add("W1a", .floor) { n in floorChain(n, stages: 1) }
    add("W1a", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = Signal<Int, Never>.from(0..<n).map { $0 &+ 1 }.filter { $0 >= 0 }.subscribeNext {
        sum.add($0)
      }
      subscription.dispose()
      return sum.value
    }
    // RAC's scheduled form (`rac_sequence.signal`), on the immediate scheduler: the walk of a memoized sequence,
    // one `scheduleRecursive` step per element. Issue 13's target for it is ≤ 100 ns per element.
    add("W1a", .asyncSignals, variant: "MemoizedSequence.signal(on: .immediate)") { n in
      let sum = Accumulator()
      let subscription = MemoizedSequence(0..<n).signal(on: .immediate).map { $0 &+ 1 }.filter { $0 >= 0 }
        .subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("W1a", .openCombine) { n in
      let sum = Accumulator()
      let subscription = countingPublisher(n).map { $0 &+ 1 }.filter { $0 >= 0 }.sink { sum.add($0) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B4b", "subject → map → filter → subscriber, pumping (issue 13's W1c)", unit: "event", size: 1_000_000,
      target: Target(atMost: 20, note: "source → map → filter → sink, hot"), expected: { triangle($0) &+ $0 })

    add("B4b", .floor) { n in floorChain(n, stages: 1) }
    add("B4b", .asyncSignals) { n in
      let sum = Accumulator()
      let subject = AsyncSignals.Subject<Int, Never>()
      let subscription = subject.map { $0 &+ 1 }.filter { $0 >= 0 }.subscribeNext { sum.add($0) }
      for value in 0..<n { subject.sendNext(value) }
      subscription.dispose()
      return sum.value
    }
    add("B4b", .openCombine) { n in
      let sum = Accumulator()
      let subject = PassthroughSubject<Int, Never>()
      let subscription = subject.map { $0 &+ 1 }.filter { $0 >= 0 }.sink { sum.add($0) }
      for value in 0..<n { subject.send(value) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B4c", "cold source → subscriber, no operator, pumping", unit: "event", size: 1_000_000, expected: triangle)

    add("B4c", .floor) { n in floorChain(n, stages: 0) }
    add("B4c", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = counting(n).subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("B4c", .openCombine) { n in
      let sum = Accumulator()
      let subscription = countingPublisher(n).sink { sum.add($0) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B5", "build the 12-operator chain, one event, dispose", unit: "round", size: 10_000,
      expected: { triangle($0) &+ 6 &* $0 })

    add("B5", .floor) { n in floorChain(n, stages: 6) }
    add("B5", .asyncSignals) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Signal<Int, Never>.return(value)
          .mapFilter().mapFilter().mapFilter().mapFilter().mapFilter().mapFilter()
          .subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    }
    add("B5", .openCombine, variant: "(Just, erased)") { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Just(value).eraseToAnyPublisher()
          .mapFilter().mapFilter().mapFilter().mapFilter().mapFilter().mapFilter()
          .sink { sum.add($0) }
        subscription.cancel()
      }
      return sum.value
    }
  }
}
