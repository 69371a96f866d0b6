import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Synchronization

// The library's rows: each shape as a user writes it, read by a `for await` loop in a detached task, once through
// `values(bufferingPolicy: .bounded(64))` and once through the unbounded `values`. Public API only, so that the same
// sources build against an older checkout (flowcost-baseline.sh).

/// The bound of every bounded row.
let bound = 64

func policy(bounded: Bool) -> SignalBufferingPolicy {
  bounded ? .bounded(bound) : .unbounded
}

/// Reads `values` to its end in a detached task, as a user's `for await` loop runs, giving each value to `consume`;
/// a bounded row also reports its `overflowCount`.
func loop<Element: Sendable>(
  _ values: SignalSequence<Element, Never>, _ consume: @escaping @Sendable (inout Outcome, Element) -> Void
) async -> Outcome {
  await Task.detached {
    var outcome = Outcome()
    for await value in values { consume(&outcome, value) }
    if case .bounded = values.bufferingPolicy { outcome.overflowCount = values.overflowCount }
    return outcome
  }.value
}

/// (a): the records read on a "reader" queue (`subscribe(on:)`, as Getting Started asks of a blocking source), one
/// `map`, the loop. With `hop`, (b): a `deliver(on:)` hop to a "parser" queue and a second `map` after the first.
/// With `work`, (h): each stage spins that long.
func signalPipeline(records: Int, hop: Bool, bounded: Bool, work: Int = 0) async -> Outcome {
  let read = Signal<Record, Never>.from(Records(count: records))
    .subscribe(on: QueueScheduler(name: "reader"))
    .map { parse($0, work) }
  let parsed = hop ? read.deliver(on: QueueScheduler(name: "parser")).map { refine($0, work) } : read
  return await loop(parsed.values(bufferingPolicy: policy(bounded: bounded))) { $0.add(consume($1, work)) }
}

/// Runs blocks as the subscription scheduler does — at once in a task or on a scheduler, otherwise on the background
/// one — and counts them. A paused `Signal.from` resumes by scheduling its walk again on the scheduler it was
/// subscribed on, so, subscribed on this one, every resumption is one block: the only count of resumptions that
/// public API can see. It runs each block as itself (`performAsCurrent`) so that the walk finds it there.
final class CountingScheduler: Scheduler {
  private let blocks = Atomic<Int>(0)
  private let base = SubscriptionScheduler.shared

  /// The blocks scheduled so far.
  var scheduled: Int { blocks.load(ordering: .relaxed) }

  var now: Date { base.now }

  func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    blocks.add(1, ordering: .relaxed)
    return base.schedule { self.performAsCurrent(action) }
  }

  func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    blocks.add(1, ordering: .relaxed)
    return base.schedule(after: date) { self.performAsCurrent(action) }
  }

  func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    blocks.add(1, ordering: .relaxed)
    return base.schedule(after: date, repeatingEvery: interval, leeway: leeway) { self.performAsCurrent(action) }
  }
}

/// (c): each number through `flattenMap(maxConcurrent: 4)` into a `Signal.async` inner that returns it at once (a
/// task per record). The source is subscribed on a `CountingScheduler`, which runs the subscription and every
/// resumption where the plain `Signal.from(…).flattenMap` would run them, so that the resumptions can be counted.
func signalFlattenMap(records: Int, bounded: Bool) async -> Outcome {
  let subscription = CountingScheduler()
  let merged = Signal<Int, Never>.from(0..<records)
    .subscribe(on: subscription)
    .flattenMap(maxConcurrent: 4) { value in Signal.async { value } }
  var outcome = await loop(merged.values(bufferingPolicy: policy(bounded: bounded))) { $0.add($1) }
  outcome.resumptions = subscription.scheduled - 1  // the first block is the subscription
  return outcome
}

/// (d): a `Signal.async` body that awaits `send` for each number: the producer that suspends while the loop is full.
func signalAsyncSend(records: Int, bounded: Bool) async -> Outcome {
  let numbers = Signal<Int, Never>.async { subscriber in
    for value in 0..<records { await subscriber.send(value) }
  }
  return await loop(numbers.values(bufferingPolicy: policy(bounded: bounded))) { $0.add($1) }
}

/// The first value of (e) and (f): the loop has subscribed once it has seen it.
let sentinel = -1

/// (e): a subject fed by `sendNext` from a plain thread, which never waits: past the bound its values are buffered
/// and counted in `overflowCount`. The thread starts once the loop has seen the sentinel, so the loop has subscribed.
func subjectFromThread(records: Int, bounded: Bool) async -> Outcome {
  let subject = Subject<Int, Never>()
  let values = subject.startWith(sentinel).values(bufferingPolicy: policy(bounded: bounded))
  return await Task.detached {
    var iterator = values.makeAsyncIterator()
    _ = await iterator.next()  // the sentinel
    Thread {
      for value in 0..<records { subject.sendNext(value) }
      subject.sendCompleted()
    }.start()
    var outcome = Outcome()
    while let value = await iterator.next() { outcome.add(value) }
    if bounded { outcome.overflowCount = values.overflowCount }
    return outcome
  }.value
}

/// (f): a subject fed by `await subject.send` from a task, which suspends while the loop is full. The task starts once
/// the loop has seen the sentinel.
func subjectFromTask(records: Int, bounded: Bool) async -> Outcome {
  let subject = Subject<Int, Never>()
  let values = subject.startWith(sentinel).values(bufferingPolicy: policy(bounded: bounded))
  return await Task.detached {
    var iterator = values.makeAsyncIterator()
    _ = await iterator.next()  // the sentinel
    Task.detached {
      for value in 0..<records { await subject.send(value) }
      subject.sendCompleted()
    }
    var outcome = Outcome()
    while let value = await iterator.next() { outcome.add(value) }
    if bounded { outcome.overflowCount = values.overflowCount }
    return outcome
  }.value
}

/// (e)'s check that `overflowCount` is exact: a thread sends `records` values while the loop, which has subscribed,
/// takes none, so exactly `records - 64` of them are past the bound. Returns the count and how many values arrived.
func overflowWhileTheLoopWaits(records: Int) async -> (overflowCount: Int, received: Int, inOrder: Bool) {
  let subject = Subject<Int, Never>()
  let values = subject.startWith(sentinel).values(bufferingPolicy: .bounded(bound))
  return await Task.detached {
    var iterator = values.makeAsyncIterator()
    _ = await iterator.next()  // the sentinel
    await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
      Thread {
        for value in 0..<records { subject.sendNext(value) }
        subject.sendCompleted()
        sent.resume()
      }.start()
    }
    var received = 0
    var inOrder = true
    while let value = await iterator.next() {
      inOrder = inOrder && value == received
      received += 1
    }
    return (values.overflowCount, received, inOrder)
  }.value
}

/// One record every `period` ns through (b)'s stages (reader queue, `map`, hop, `map`); the loop notes how long after
/// its producer made it each record arrived.
func signalLatency(records: Int, period: UInt64, bounded: Bool) async -> Outcome {
  let stamped = Signal<Stamped, Never>.from(PacedRecords(count: records, period: period))
    .subscribe(on: QueueScheduler(name: "reader"))
    .map { Stamped(index: $0.index &* 3, made: $0.made) }
    .deliver(on: QueueScheduler(name: "parser"))
    .map { Stamped(index: $0.index &+ 1, made: $0.made) }
  return await loop(stamped.values(bufferingPolicy: policy(bounded: bounded))) { noteLatency(&$0, $1, records) }
}

/// The loop body of (g): the latency of `record`, first thing.
@inline(__always)
func noteLatency(_ outcome: inout Outcome, _ record: Stamped, _ records: Int) {
  let arrived = monotonicNanoseconds()
  if outcome.latencies.isEmpty { outcome.latencies.reserveCapacity(records) }
  outcome.latencies.append(arrived &- record.made)
  outcome.add(record.index)
}
