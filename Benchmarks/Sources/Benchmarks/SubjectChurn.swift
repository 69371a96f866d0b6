import AsyncSignals
import OpenCombine

// B3: a subject's whole life, over and over: create it, subscribe, send one value, dispose.

extension Benchmark {
  mutating func addSubjectChurnBenchmarks() {
    workload(
      "B3", "subject churn: create, subscribe, send one, dispose", unit: "round", size: 100_000,
      expected: triangle)

    add("B3", .floor) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscriber: (Int) -> Void = opaque { sum.add($0) }
        subscriber(value)
      }
      return sum.value
    }
    add("B3", .asyncSignals) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subject = AsyncSignals.Subject<Int, Never>()
        let subscription = subject.subscribeNext { sum.add($0) }
        subject.sendNext(value)
        subscription.dispose()
      }
      return sum.value
    }
    add("B3", .openCombine) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.sink { sum.add($0) }
        subject.send(value)
        subscription.cancel()
      }
      return sum.value
    }
  }
}
