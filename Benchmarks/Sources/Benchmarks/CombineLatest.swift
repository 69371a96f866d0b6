import AsyncSignals

// B8: combineLatest of 4, nested 7 deep: each level combines the level below with three single-value signals
// and sums the tuple, so a value sent at the bottom crosses 7 combineLatest operators (and 7 maps) on its way.
// The single-value signals come first, so that the source's values all find their partners' latest values.
//
// B8   pumping: a cold source of n values at the bottom
// B8b  creating: the 7-level tree over a single-value signal, built, subscribed, disposed, n times
//
// OpenCombine 0.14 has no combineLatest (neither `Publishers.CombineLatest` nor `combineLatest(_:)`), so only
// AsyncSignals and the floor run; swift-async-algorithms' `combineLatest` takes at most 3 AsyncSequences.

private func counting(_ n: Int) -> Signal<Int, Never> {
  Signal<Int, Never>.create { subscriber in
    for value in 0..<n { subscriber.sendNext(value) }
    subscriber.sendCompleted()
    return nil
  }
}

/// Seven levels of `combineLatest(zero, zero, zero, below).map(sum)` over `bottom`.
private func nested(_ bottom: Signal<Int, Never>) -> Signal<Int, Never> {
  var signal = bottom
  for _ in 0..<7 {
    signal = Signal.combineLatest(Signal<Int, Never>.return(0), .return(0), .return(0), signal)
      .map { $0 &+ $1 &+ $2 &+ $3 }
  }
  return signal
}

private func floorNested(_ n: Int) -> Int {
  let sum = Accumulator()
  let combine: (Int, Int, Int, Int) -> Int = opaque { $0 &+ $1 &+ $2 &+ $3 }
  let subscriber: (Int) -> Void = opaque { sum.add($0) }
  for value in 0..<n {
    var value = value
    for _ in 0..<7 { value = combine(0, 0, 0, value) }
    subscriber(value)
  }
  return sum.value
}

extension Benchmark {
  mutating func addCombineLatestBenchmarks() {
    workload(
      "B8", "combineLatest of 4, nested 7 deep, pumping", unit: "event", size: 100_000, expected: triangle)

    add("B8", .floor) { n in floorNested(n) }
    add("B8", .asyncSignals) { n in
      let sum = Accumulator()
      let subscription = nested(counting(n)).subscribeNext { sum.add($0) }
      subscription.dispose()
      return sum.value
    }

    workload(
      "B8b", "combineLatest of 4, nested 7 deep, creating: build, subscribe, one event, dispose", unit: "round",
      size: 10_000, expected: triangle)

    add("B8b", .floor) { n in floorNested(n) }
    add("B8b", .asyncSignals) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = nested(.return(value)).subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    }
  }
}
