import AsyncSignals
import OpenCombine

// B1, B2: values sent into a hot subject, one or two subscribers summing them.

extension Benchmark {
  mutating func addSubjectPumpingBenchmarks() {
    workload("B1", "subject pumping, 1 subscriber summing", unit: "send", size: 1_000_000, expected: triangle)

    add("B1", .floor) { n in
      let sum = Accumulator()
      let subscriber: (Int) -> Void = opaque { sum.add($0) }
      for value in 0..<n { subscriber(value) }
      return sum.value
    }
    add("B1", .asyncSignals) { n in
      let sum = Accumulator()
      let subject = AsyncSignals.Subject<Int, Never>()
      let subscription = subject.subscribeNext { sum.add($0) }
      for value in 0..<n { subject.sendNext(value) }
      subscription.dispose()
      return sum.value
    }
    add("B1", .openCombine) { n in
      let sum = Accumulator()
      let subject = PassthroughSubject<Int, Never>()
      let subscription = subject.sink { sum.add($0) }
      for value in 0..<n { subject.send(value) }
      subscription.cancel()
      return sum.value
    }

    workload(
      "B2", "subject pumping, 2 subscribers summing", unit: "send", size: 1_000_000,
      expected: { 2 &* triangle($0) })

    add("B2", .floor) { n in
      let sum = Accumulator()
      let first: (Int) -> Void = opaque { sum.add($0) }
      let second: (Int) -> Void = opaque { sum.add($0) }
      for value in 0..<n {
        first(value)
        second(value)
      }
      return sum.value
    }
    add("B2", .asyncSignals) { n in
      let sum = Accumulator()
      let subject = AsyncSignals.Subject<Int, Never>()
      let first = subject.subscribeNext { sum.add($0) }
      let second = subject.subscribeNext { sum.add($0) }
      for value in 0..<n { subject.sendNext(value) }
      first.dispose()
      second.dispose()
      return sum.value
    }
    add("B2", .openCombine) { n in
      let sum = Accumulator()
      let subject = PassthroughSubject<Int, Never>()
      let first = subject.sink { sum.add($0) }
      let second = subject.sink { sum.add($0) }
      for value in 0..<n { subject.send(value) }
      first.cancel()
      second.cancel()
      return sum.value
    }
  }
}
