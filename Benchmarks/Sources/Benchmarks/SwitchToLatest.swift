import AsyncSignals
import OpenCombine

// B7: 5 × a switchToLatest-style flatMapLatest — `map { .return($0) }.switchToLatest()` — pumping and creating,
// shaped as B6 (FlattenMap.swift) so that the two compare. OpenCombine: `map { Just($0) }.switchToLatest()`.

private func counting(_ n: Int) -> Signal<Int, Never> {
  Signal<Int, Never>.create { subscriber in
    for value in 0..<n { subscriber.sendNext(value) }
    subscriber.sendCompleted()
    return nil
  }
}

extension Signal where Value == Int {
  /// RAC's `-flattenMap:` with switching instead of merging, the shape users call flatMapLatest.
  fileprivate func flatMapLatest() -> Signal<Int, Failure> {
    map { Signal<Int, Failure>.return($0) }.switchToLatest()
  }
}

extension Publisher where Output == Int, Failure == Never {
  fileprivate func flatMapLatest() -> Publishers.SwitchToLatest<Just<Int>, Publishers.Map<Self, Just<Int>>> {
    map { Just($0) }.switchToLatest()
  }
}

private func floorSwitch(_ n: Int) -> Int {
  let sum = Accumulator()
  let transform: (Int) -> Int = opaque { $0 }
  let subscriber: (Int) -> Void = opaque { sum.add($0) }
  for value in 0..<n {
    subscriber(transform(transform(transform(transform(transform(value))))))
  }
  return sum.value
}

extension Benchmark {
  mutating func addSwitchToLatestBenchmarks() {
    workload(
      "B7", "5 × map { return($0) }.switchToLatest(), pumping", unit: "event", size: 100_000, expected: triangle)

    add("B7", .floor) { n in floorSwitch(n) }
    add("B7", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = counting(n)
        .flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest()
        .subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }
    add("B7", .openCombine) { n in
      let sum = Accumulator()
      let subscription = (0..<n).publisher.eraseToAnyPublisher()
        .flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest()
        .sink { sum.add($0) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B7b", "5 × map { return($0) }.switchToLatest(), creating: build, subscribe, one event, dispose",
      unit: "round", size: 10_000, expected: triangle)

    add("B7b", .floor) { n in floorSwitch(n) }
    add("B7b", .asyncSignals) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Signal<Int, Never>.return(value)
          .flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest()
          .subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    }
    add("B7b", .openCombine, variant: "(Just, erased)") { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Just(value).eraseToAnyPublisher()
          .flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest().flatMapLatest()
          .sink { sum.add($0) }
        subscription.cancel()
      }
      return sum.value
    }
  }
}
