import AsyncSignals
import OpenCombine

// B9: fan-out: one subject, 8 subscribers (B9) and 100 subscribers (B9b), every one summing. Per delivery.

extension Benchmark {
  mutating func addFanOutBenchmarks() {
    for (id, subscribers, issueID) in [("B9", 8, ""), ("B9b", 100, " (issue 13's W3)")] {
      workload(
        id, "fan-out: one subject, \(subscribers) subscribers\(issueID)", unit: "delivery", size: 100_000,
        operationsPerItem: subscribers, target: Target(atMost: 10, note: "fan-out per delivery"),
        expected: { subscribers &* triangle($0) })

      add(id, .floor) { n in
        let sum = Accumulator()
        let closures: [(Int) -> Void] = (0..<subscribers).map { _ in opaque { sum.add($0) } }
        for value in 0..<n {
          for closure in closures { closure(value) }
        }
        return sum.value
      }
      add(id, .asyncSignals) { n in
        let sum = Accumulator()
        let subject = AsyncSignals.Subject<Int, Never>()
        let subscriptions = (0..<subscribers).map { _ in subject.subscribeNext { sum.add($0) } }
        for value in 0..<n { subject.sendNext(value) }
        for subscription in subscriptions { subscription.dispose() }
        return sum.value
      }
      add(id, .openCombine) { n in
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let subscriptions = (0..<subscribers).map { _ in subject.sink { sum.add($0) } }
        for value in 0..<n { subject.send(value) }
        for subscription in subscriptions { subscription.cancel() }
        return sum.value
      }
    }
  }
}
