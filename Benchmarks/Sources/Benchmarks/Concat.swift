import AsyncSignals
import OpenCombine

// B16 (not in the table, but its targets have "concat ≤ 400 ns per inner signal"): ten single-value
// signals concatenated — `return(0).concat(return(1))…concat(return(9))`, built, subscribed and disposed, per
// inner signal. OpenCombine: `Just(0).append(Just(1))…`, erased at each step (its types nest otherwise).

extension Benchmark {
  mutating func addConcatBenchmarks() {
    let inners = 10
    workload(
      "B16", "concat of 10 single-value signals: build, subscribe, dispose", unit: "inner signal", size: 10_000,
      operationsPerItem: inners, target: Target(atMost: 400, note: "concat per inner signal"),
      expected: { $0 &* (inners &* (inners &- 1) / 2) })

    add("B16", .floor) { n in
      let sum = Accumulator()
      let subscriber: (Int) -> Void = opaque { sum.add($0) }
      for _ in 0..<n {
        for value in 0..<inners { subscriber(value) }
      }
      return sum.value
    }
    add("B16", .asyncSignals) { n in
      let sum = Accumulator()
      for _ in 0..<n {
        var signal = Signal<Int, Never>.return(0)
        for value in 1..<inners { signal = signal.concat(.return(value)) }
        signal.subscribeNext { sum.add($0) }.dispose()
      }
      return sum.value
    }
    add("B16", .openCombine, variant: "append, erased") { n in
      let sum = Accumulator()
      for _ in 0..<n {
        var publisher = Just(0).eraseToAnyPublisher()
        for value in 1..<inners { publisher = publisher.append(Just(value)).eraseToAnyPublisher() }
        publisher.sink { sum.add($0) }.cancel()
      }
      return sum.value
    }
  }
}
