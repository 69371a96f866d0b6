import AsyncSignals
import OpenCombine

// B6: 5 × flattenMap { return($0) } — each value becomes a one-value signal that is subscribed to and merged.
//
// B6   pumping: a cold source of n values through the 5 stages (5 inner subscriptions per value)
// B6b  creating: the 5-stage chain on a single-value signal, built, subscribed, disposed, n times
// W4a  one stage of B6 (issue 13's W4a), per outer value
//
// OpenCombine: `flatMap { Just($0) }`; sources as in OperatorChain.swift.

private func counting(_ n: Int) -> Signal<Int, Never> {
  Signal<Int, Never>.create { subscriber in
    for value in 0..<n { subscriber.sendNext(value) }
    subscriber.sendCompleted()
    return nil
  }
}

private func floorFlatten(_ n: Int) -> Int {
  let sum = Accumulator()
  let transform: (Int) -> Int = opaque { $0 }
  let subscriber: (Int) -> Void = opaque { sum.add($0) }
  for value in 0..<n {
    subscriber(transform(transform(transform(transform(transform(value))))))
  }
  return sum.value
}

extension Benchmark {
  mutating func addFlattenMapBenchmarks() {
    workload(
      "B6", "5 × flattenMap { return($0) }, pumping", unit: "event", size: 100_000,
      target: Target(atMost: 1000, note: "≤ 200 per outer value for each of the 5 stages"), expected: triangle)

    add("B6", .floor) { n in floorFlatten(n) }
    add("B6", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = counting(n)
        .flattenMap { .return($0) }
        .flattenMap { .return($0) }
        .flattenMap { .return($0) }
        .flattenMap { .return($0) }
        .flattenMap { .return($0) }
        .subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("B6", .openCombine) { n in
      let sum = Accumulator()
      let subscription = (0..<n).publisher.eraseToAnyPublisher()
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .sink { sum.add($0) }
      subscription.cancel()
      return sum.value
    }

    // W4a (issue 13): one flattenMap stage, each outer value into a one-value inner. Per outer value.
    workload(
      "W4a", "flatMap into one-value inners (issue 13's W4a)", unit: "outer value", size: 100_000,
      target: Target(atMost: 150, note: "issue 13: W4a ≤ 150"), expected: triangle)

    add("W4a", .floor) { n in
      let sum = Accumulator()
      let transform: (Int) -> Int = opaque { $0 }
      let subscriber: (Int) -> Void = opaque { sum.add($0) }
      for value in 0..<n { subscriber(transform(value)) }
      return sum.value
    }
    add("W4a", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = counting(n).flattenMap { .return($0) }.subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("W4a", .openCombine) { n in
      let sum = Accumulator()
      let subscription = (0..<n).publisher.eraseToAnyPublisher().flatMap { Just($0) }.sink { sum.add($0) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B6b", "5 × flattenMap { return($0) }, creating: build, subscribe, one event, dispose", unit: "round",
      size: 10_000, expected: triangle)

    add("B6b", .floor) { n in floorFlatten(n) }
    add("B6b", .asyncSignals) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Signal<Int, Never>.return(value)
          .flattenMap { .return($0) }
          .flattenMap { .return($0) }
          .flattenMap { .return($0) }
          .flattenMap { .return($0) }
          .flattenMap { .return($0) }
          .subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    }
    add("B6b", .openCombine, variant: "(Just, erased)") { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Just(value).eraseToAnyPublisher()
          .flatMap { Just($0) }
          .flatMap { Just($0) }
          .flatMap { Just($0) }
          .flatMap { Just($0) }
          .flatMap { Just($0) }
          .sink { sum.add($0) }
        subscription.cancel()
      }
      return sum.value
    }
  }
}
