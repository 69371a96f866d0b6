import AsyncSignals
import AsyncSignalsInterop

#if canImport(Glibc)
import Glibc
#endif

// B13, the AsyncSignals rows: `for await` over a subject's `values`, one row per buffering policy, added to the
// workload that ForAwait.swift registers (raw AsyncStream, AsyncChannel, the by-hand bridge). An iterator
// subscribes at its first `next()`, so the producer thread waits until the subject has its subscriber before
// sending. The default policy must lose nothing (its checksum is compared), and so must `.bounded(64)` (its
// producer cannot pause, so it never waits and the excess is counted); the `buffering` ones drop by design when
// the consumer falls behind, so their rows are marked lossy. The default row is the ratios' baseline, and
// the target is AsyncSignals ≤ 0.5 × the raw AsyncStream row.

extension Benchmark {
  mutating func addForAwaitInteropBenchmarks() {
    let policies: [(variant: String, policy: SignalBufferingPolicy?)] = [
      ("values (unbounded, default)", nil),
      ("values(.bufferingNewest(1024))", .bufferingNewest(1024)),
      ("values(.bufferingOldest(1024))", .bufferingOldest(1024)),
      ("values(.bounded(64)), subject from a thread", .bounded(64)),
    ]
    for (variant, policy) in policies {
      add(
        "B13", .asyncSignals, variant: variant, threaded: true, lossy: policy.map { $0 != .bounded(64) } ?? false,
        isBaseline: policy == nil,
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
    // Flow control (issue 19): a producer that can be bounded, a `Signal.async` body whose `await send` suspends
    // while 64 values wait (no value lost, memory bounded). The subject row above cannot pause and never waits. The
    // same body into an unbounded loop takes item 5's gap apart (issue 29): it is what the producer costs without
    // flow control.
    for (variant, policy) in [
      ("values(.bounded(64)), Signal.async + await send", SignalBufferingPolicy.bounded(64)),
      ("values (unbounded), Signal.async + await send", .unbounded),
    ] {
      add(
        "B13", .asyncSignals, variant: variant, threaded: true,
        .async({ n in
          let signal = AsyncSignals.Signal<Int, Never>.async { subscriber in
            for value in 0..<n { await subscriber.send(value) }
          }
          var sum = 0
          for await value in signal.values(bufferingPolicy: policy) { sum &+= value }
          return sum
        }))
    }
    // Issue 28: the same subject, fed from a task with `await subject.send(_:)`, which suspends while 64 values wait
    // for the loop (no value lost, memory bounded); the `sendNext` row above never waits.
    add(
      "B13", .asyncSignals, variant: "values(.bounded(64)), subject + await send from a task", threaded: true,
      .async({ n in
        let subject = AsyncSignals.Subject<Int, Never>()
        let values = subject.values(bufferingPolicy: .bounded(64))
        Task.detached {
          while subject.subscriberCount == 0 { await Task.yield() }  // until the loop below has subscribed
          for value in 0..<n { await subject.send(value) }
          subject.sendCompleted()
        }
        var sum = 0
        for await value in values { sum &+= value }
        return sum
      }))

    // Item 5's gap, taken apart (issue 29): a body whose `sendNext` never waits, into the bounded loop, is what the
    // bounded loop costs without a pause (the excess is counted in `overflowCount`). What the bounded `await send` row
    // adds to it, and to the unbounded `Signal.async` row, is the pausing itself.
    add(
      "B13", .asyncSignals, variant: "values(.bounded(64)), Signal.async + sendNext (never waits)", threaded: true,
      .async({ n in
        let signal = AsyncSignals.Signal<Int, Never>.async { subscriber in
          for value in 0..<n { subscriber.sendNext(value) }
        }
        var sum = 0
        for await value in signal.values(bufferingPolicy: .bounded(64)) { sum &+= value }
        return sum
      }))

    // B18: a cold pipeline read with `for await` in a task, unbounded (the whole source buffered at once, as the
    // walk runs while subscribing) against `.bounded(64)` (the walk pauses and resumes in the loop's task).
    workload(
      "B18", "issue 19: Signal.from(0..<n).map into for await, in a task, unbounded and bounded", unit: "element",
      size: 1_000_000, expected: { n in 2 &* triangle(n) })
    add(
      "B18", .asyncSignals, variant: "values (unbounded)", isBaseline: true,
      .async({ n in
        var sum = 0
        for await value in AsyncSignals.Signal<Int, Never>.from(0..<n).map({ $0 &* 2 }).values { sum &+= value }
        return sum
      }))
    add(
      "B18", .asyncSignals, variant: "values(.bounded(64))",
      .async({ n in
        var sum = 0
        for await value in AsyncSignals.Signal<Int, Never>.from(0..<n).map({ $0 &* 2 }).values(bufferingPolicy: .bounded(64)) {
          sum &+= value
        }
        return sum
      }))
  }
}
