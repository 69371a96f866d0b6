import AsyncSignals
import AsyncSignalsInterop

#if canImport(Glibc)
import Glibc
#endif

// B13, the AsyncSignals rows: `for await` over a subject's `values`, one row per buffering policy, added to the
// workload that ForAwait.swift registers (raw AsyncStream, AsyncChannel, the by-hand bridge). An iterator
// subscribes at its first `next()`, so the producer thread waits until the subject has its subscriber before
// sending. The default policy must lose nothing (its checksum is compared); the bounded ones drop by design
// when the consumer falls behind, so their rows are marked lossy. The default row is the ratios' baseline, and
// the target is AsyncSignals ≤ 0.5 × the raw AsyncStream row.

extension Benchmark {
  mutating func addForAwaitInteropBenchmarks() {
    let policies: [(variant: String, policy: SignalBufferingPolicy?)] = [
      ("values (unbounded, default)", nil),
      ("values(.bufferingNewest(1024))", .bufferingNewest(1024)),
      ("values(.bufferingOldest(1024))", .bufferingOldest(1024)),
    ]
    for (variant, policy) in policies {
      add(
        "B13", .asyncSignals, variant: variant, threaded: true, lossy: policy != nil, isBaseline: policy == nil,
        .async({ n in
          let subject = AsyncSignals.Subject<Int, Never>()
          let sequence = policy.map { subject.values(bufferingPolicy: $0) } ?? subject.values
          var iterator = sequence.makeAsyncIterator()
          _ = StartedThread {
            while subject.subscriberCount == 0 { sched_yield() }
            for value in 0..<n { subject.sendNext(value) }
            subject.sendCompleted()
          }
          var sum = 0
          while let value = await iterator.next() { sum &+= value }
          return sum
        }))
    }
  }
}
