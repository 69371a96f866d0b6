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
  
    // W4b (issue 13): `Signal.concat` of 10,000 inners, each built from a three-element array with `from(_:)`;
    // OpenCombine: the inners' `publisher`s concatenated by `flatMap(maxPublishers: .max(1))`. Per inner signal.
    let arrays = 10_000
    workload(
      "W4b", "concat of 10,000 three-value inners built from arrays (issue 13's W4b)", unit: "inner signal",
      size: 3, smokeSize: 1, operationsPerItem: arrays, target: Target(atMost: 500, note: "issue 13: W4b ≤ 500"),
      expected: { $0 &* arrays &* 3 })

    add("W4b", .floor) { n in
      let sum = Accumulator()
      let subscriber: (Int) -> Void = opaque { sum.add($0) }
      for _ in 0..<n {
        for _ in 0..<arrays {
          for value in [0, 1, 2] { subscriber(value) }
        }
      }
      return sum.value
    }
    add("W4b", .asyncSignals) { n in
      let sum = Accumulator()
      for _ in 0..<n {
        let inners = (0..<arrays).map { _ in Signal<Int, Never>.from([0, 1, 2]) }
        Signal.concat(inners).subscribeNext { sum.add($0) }.dispose()
      }
      return sum.value
    }
    add("W4b", .openCombine, variant: "flatMap(maxPublishers: .max(1))") { n in
      let sum = Accumulator()
      for _ in 0..<n {
        let inners = (0..<arrays).map { _ in [0, 1, 2].publisher }
        inners.publisher.flatMap(maxPublishers: .max(1)) { $0 }.sink { sum.add($0) }.cancel()
      }
      return sum.value
    }
  }
}
