import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSignalsInterop

// Flow control (`values(bufferingPolicy: .bounded(n))`): sources the library drives pause, producers in tasks
// suspend, every other sender never waits and its excess is counted; nothing hangs.

/// A slow consumer: reads every value, yielding between values so that a producer that does not pause runs ahead.
/// (Shared with FlowControlConcurrencyTests.)
func readSlowly<Iterator: AsyncIteratorProtocol>(
  _ iterator: inout Iterator, isolation: isolated (any Actor)? = #isolation
) async throws(Iterator.Failure) -> [Iterator.Element] {
  var values: [Iterator.Element] = []
  while let value = try await iterator.next(isolation: isolation) {
    values.append(value)
    for _ in 0..<3 { await Task.yield() }
  }
  return values
}

/// An async sequence of `0..<count` that counts how many elements have been pulled from it.
private struct CountingSequence: AsyncSequence, Sendable {
  typealias Element = Int
  let count: Int
  let pulled: Counter

  final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    let count: Int
    let pulled: Counter
    mutating func next() async -> Int? {
      let index = pulled.increment() - 1
      return index < count ? index : nil
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, pulled: pulled) }
}

/// A serial executor over a Dispatch queue that is not a `QueueScheduler`: the library cannot recognise it.
private final class PlainQueueExecutor: SerialExecutor, @unchecked Sendable {
  // guarded by: immutability — `queue` is a `let`, a Dispatch queue (thread-safe).
  let queue = DispatchQueue(label: "FlowControlTests.PlainQueueExecutor")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

  func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}

/// A consumer that reads a subject through `.bounded(2)` in its own isolation, on a given executor.
private actor BoundedConsumer {
  nonisolated let executor: any SerialExecutor

  init(executor: any SerialExecutor) {
    self.executor = executor
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// Subscribes, starts `produce` (which the executor runs after this job suspends), and reads to the end.
  func read(_ subject: Subject<Int, Never>, produce: @escaping @Sendable () -> Void) async -> [Int] {
    var iterator = subject.values(bufferingPolicy: .bounded(2)).makeAsyncIterator()
    guard let first = await iterator.next(isolation: self, afterSubscribing: produce) else { return [] }
    var values = [first]
    while let value = await iterator.next(isolation: self) { values.append(value) }
    return values
  }
}

/// `0..<count`, calling `probe` as each element is produced: where a walk reads its sequence.
private struct ProbedRange: Sequence, Sendable {
  let count: Int
  let probe: @Sendable () -> Void

  func makeIterator() -> AnyIterator<Int> {
    var next = 0
    return AnyIterator { [count, probe] in
      guard next < count else { return nil }
      probe()
      defer { next += 1 }
      return next
    }
  }
}

/// A loop that reads a signal through `.bounded(4)`, slowly, in its own isolation, on a plain queue's executor.
private actor LoopOnQueue {
  nonisolated let executor = PlainQueueExecutor()

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  func read(_ signal: Signal<Int, Never>) async -> (values: [Int], highWaterMark: Int) {
    var iterator = signal.values(bufferingPolicy: .bounded(4)).makeAsyncIterator()
    let received = await readSlowly(&iterator)
    return (received, iterator.highWaterMark)
  }
}

extension SignalSequence.Iterator {
  /// `next(isolation:)`, running `start` once the first call has subscribed (before it suspends).
  fileprivate mutating func next(
    isolation actor: isolated (any Actor)?, afterSubscribing start: @escaping @Sendable () -> Void
  ) async throws(Failure) -> Element? {
    start()  // queued on the consumer's executor: it runs once this job suspends, after the subscription
    return try await next(isolation: actor)
  }
}

@Suite("Flow control: values(bufferingPolicy: .bounded(n))")
struct FlowControlTests {
  // MARK: Senders that cannot pause never wait

  @Test("a subject's sender on a plain thread never waits: the excess is buffered and counted, nothing is lost")
  func foreignSenderNeverWaits() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(4))
    let subscribed = DispatchSemaphore(value: 0)
    let producer = plainThread {
      subscribed.wait()  // until the loop below has subscribed: a value sent before would reach no one
      for value in 0..<1_000 { subject.sendNext(value) }  // all return while the consumer takes nothing more
      subject.sendCompleted()
    }
    let executor = SerialTaskExecutor()
    let received = await Task(executorPreference: executor) {
      var iterator = values.makeAsyncIterator()
      executor.afterCurrentJob { subscribed.signal() }  // once the first next() has subscribed and suspended
      let first = await iterator.next()
      await producer.wait()  // would never return if the producer waited for room
      var received = [first]
      while let value = await iterator.next() { received.append(value) }
      return received
    }.value
    #expect(received == Array(0..<1_000))
    // The first went straight to the waiting consumer, or was buffered an instant before the consumer took it.
    #expect((1_000 - 1 - 4)...(1_000 - 4) ~= values.overflowCount)
  }

  @Test("a producer running in a task never waits: the buffer grows past the bound and counts the overflow")
  func taskProducerNeverWaits() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(2))
    let subscribed = Gate()
    let producer = Task {
      await subscribed.wait()  // until the loop below has subscribed: a value sent before would reach no one
      for value in 1...100 { subject.sendNext(value) }
      subject.sendCompleted()
    }
    let executor = SerialTaskExecutor()
    let (received, overflowCount) = await Task(executorPreference: executor) {
      var iterator = values.makeAsyncIterator()
      executor.afterCurrentJob { subscribed.open() }  // once the first next() has subscribed and suspended
      let first = await iterator.next()
      await producer.value
      var received = [first]
      while let value = await iterator.next() { received.append(value) }
      return (received, iterator.overflowCount)
    }.value
    #expect(received == Array(1...100))
    #expect((100 - 1 - 2)...(100 - 2) ~= overflowCount)  // as above, for the first value
  }

  @Test("a subject sent to from a Dispatch queue never waits: the excess is buffered and counted")
  func queueSenderNeverWaits() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(4))
    let sentAll = Gate()
    let executor = SerialTaskExecutor()
    let received = await Task(executorPreference: executor) {
      var iterator = values.makeAsyncIterator()
      // Once the first next() has subscribed and suspended, so the subject counts the consumer: a value sent before
      // would reach no one.
      executor.afterCurrentJob {
        DispatchQueue.global().async {
          for value in 0..<100 { subject.sendNext(value) }
          subject.sendCompleted()
          sentAll.open()
        }
      }
      let first = await iterator.next()
      await sentAll.wait()  // all sent while the consumer took nothing more
      var received = [first]
      while let value = await iterator.next() { received.append(value) }
      return received
    }.value
    #expect(received == Array(0..<100))
    #expect(values.overflowCount >= 100 - 1 - 4)
  }

  @Test("a subject sent to on the loop's own executor never waits: a loop on the main actor, sent to on the main queue")
  @MainActor
  func consumerExecutorSenderNeverWaits() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(1))
    var iterator = values.makeAsyncIterator()
    let sentAll = Gate()
    DispatchQueue.main.async {
      // Runs once the loop below has subscribed and suspended: waiting here would stop the loop for good.
      for value in 1...10 { subject.sendNext(value) }
      subject.sendCompleted()
      sentAll.open()
    }
    let first = await iterator.next(isolation: #isolation)
    await sentAll.wait()
    #expect(first == 1)
    #expect(values.overflowCount == 10 - 1 - 1)
  }

  /// How a `Signal.async` body sends without waiting: `sendNext(_:)`, or subscribing its subscriber to another signal.
  enum SendWithoutWaiting: CaseIterable, Sendable {
    case sendNext, forwarded
  }

  @Test(
    "a Signal.async body that calls sendNext(_:), or forwards another signal, is not paused: its excess is counted",
    arguments: SendWithoutWaiting.allCases)
  func asyncBodySendNextIsCounted(sending: SendWithoutWaiting) async {
    let sentAll = Gate()
    let signal = Signal<Int, Never>.async { subscriber in
      switch sending {
      case .sendNext: for value in 0..<100 { subscriber.sendNext(value) }
      case .forwarded: Signal.from(0..<100).subscribe(subscriber)  // forwarded with sendNext(_:), all at once
      }
      sentAll.open()
    }
    let values = signal.values(bufferingPolicy: .bounded(4))
    var iterator = values.makeAsyncIterator()
    let first = await iterator.next()
    await sentAll.wait()  // the body sent everything while the loop took one value
    var received = [first]
    while let value = await iterator.next() { received.append(value) }
    #expect(received == Array(0..<100))
    #expect(values.overflowCount >= 100 - 1 - 4)
  }

  @Test(
    "a Signal.async body that subscribes its subscriber to another signal: leaving the loop disposes that subscription",
    arguments: [SignalBufferingPolicy.unbounded, .bounded(2)])
  func asyncBodyForwardsItsSubscription(policy: SignalBufferingPolicy) async {
    let forwardedDisposed = Gate()
    let forwarded = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(1)
      return ActionDisposable { forwardedDisposed.open() }
    }
    let signal = Signal<Int, Never>.async { subscriber in
      forwarded.subscribe(subscriber)  // the subscriber keeps this subscription (didSubscribe(with:)) with its own
      let cancelled = Gate()
      await withTaskCancellationHandler { await cancelled.wait() } onCancel: { cancelled.open() }
    }
    for await value in signal.values(bufferingPolicy: policy) {
      #expect(value == 1)
      break  // disposes the loop's subscription, and with it the forwarded one
    }
    #expect(forwardedDisposed.isOpen)
  }

  @Test("a paused source resumes once the loop has taken its buffer down to half the bound, not before")
  func resumesAtHalf() async {
    let produced = Locked(0)
    let values = Signal<Int, Never>.from(0..<100).doNext { _ in produced.increment() }
      .values(bufferingPolicy: .bounded(8))
    var iterator = values.makeAsyncIterator()
    _ = await iterator.next()  // subscribes: the walk fills the buffer with 8 and pauses
    // 0 was in the buffer (the walk ran while subscribing, before the loop waited): 7 left, and 8 produced.
    #expect(produced.value == 8)
    for _ in 0..<3 { _ = await iterator.next() }  // 4 left: half of 8
    #expect(produced.value == 8 + 4)  // resumed at 4 left, on this task, until full again
    for _ in 0..<3 { _ = await iterator.next() }  // 5 left
    #expect(produced.value == 12)
    _ = await iterator.next()  // 4 left
    #expect(produced.value == 16)
  }

  @Test("a create body consumed from a task is not paused: it sends at once, and its excess is counted")
  func createBodyIsCounted() async {
    let body = Signal<Int, Never>.create { subscriber in
      for value in 0..<100 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let values = body.values(bufferingPolicy: .bounded(8))
    var iterator = values.makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received == Array(0..<100))
    #expect(values.overflowCount == 100 - 8)  // run at once while subscribing: nothing handed over directly
  }

  @Test("overflowCount counts the loop's elements: the arrays of buffer(count:), not the values in them")
  func overflowCountsBatches() async {
    let body = Signal<Int, Never>.create { subscriber in
      for value in 0..<1_000 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let values = body.buffer(count: 100).values(bufferingPolicy: .bounded(2))
    var iterator = values.makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received.count == 10 && received.flatMap { $0 } == Array(0..<1_000))
    #expect(values.overflowCount == 10 - 2)  // 8 arrays beyond the bound of 2: 800 values, counted as 8
  }

  // MARK: The hang shapes of .bounded's blocking wait (issue 19), with a watchdog

  @Test("a loop that sends back into the subject it reads, while a plain-thread producer fills it, ends")
  func loopSendsBackIntoItsSubject() async {
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let executor = SerialTaskExecutor()
    let ended = await finishes {
      let subscribed = DispatchSemaphore(value: 0)
      let producer = plainThread {
        subscribed.wait()  // until the loop below has subscribed: a value sent before would reach no one
        for value in 0..<50 { subject.sendNext(value) }
      }
      await Task(executorPreference: executor) {
        executor.afterCurrentJob { subscribed.signal() }  // once the loop's first next() has subscribed and suspended
        for await value in subject.values(bufferingPolicy: .bounded(2)) {
          received.append(value)
          if value < 50 { subject.sendNext(value + 1_000) }  // re-queue a failed request
          if received.value.count == 100 { break }
        }
      }.value
      await producer.wait()
    }
    #expect(ended)
    #expect(received.value.filter { $0 < 50 } == Array(0..<50))
    #expect(received.value.filter { $0 >= 1_000 } == Array(1_000..<1_050))
  }

  @Test("a producer on a QueueScheduler that targets the consuming actor's queue ends")
  func producerOnChildOfConsumersQueue() async {
    let consumerQueue = QueueScheduler(name: "consumer")
    let child = QueueScheduler(name: "producer", targetQueue: consumerQueue.queue)
    let consumer = BoundedConsumer(executor: consumerQueue)
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let ended = await finishes {
      received.value = await consumer.read(subject) {
        child.schedule {
          for value in 0..<100 { subject.sendNext(value) }
          subject.sendCompleted()
        }
      }
    }
    #expect(ended)
    #expect(received.value == Array(0..<100))
  }

  @Test("a producer on the queue of the consuming actor's custom (non-QueueScheduler) executor ends")
  func producerOnConsumersCustomExecutor() async {
    let executor = PlainQueueExecutor()
    let consumer = BoundedConsumer(executor: executor)
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let ended = await finishes {
      received.value = await consumer.read(subject) {
        executor.queue.async {
          for value in 0..<100 { subject.sendNext(value) }
          subject.sendCompleted()
        }
      }
    }
    #expect(ended)
    #expect(received.value == Array(0..<100))
  }

  // MARK: Sources the library drives pause

  @Test("Signal.from pauses while the consumer is full: never more than the bound buffered, nothing lost")
  func fromPauses() async {
    let values = Signal<Int, Never>.from(0..<10_000).values(bufferingPolicy: .bounded(8))
    var iterator = values.makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received == Array(0..<10_000))
    #expect(iterator.highWaterMark <= 8)
    #expect(iterator.highWaterMark >= 1)  // it did buffer: the consumer was slower
    #expect(values.overflowCount == 0)
  }

  @Test("Signal.from pauses for a consumer in an actor's isolation too")
  func fromPausesInActor() async {
    actor Reader {
      func read() async -> (values: [Int], highWaterMark: Int, overflow: Int) {
        let values = Signal<Int, Never>.from(0..<2_000).map { $0 * 2 }.values(bufferingPolicy: .bounded(4))
        var iterator = values.makeAsyncIterator()
        let received = await readSlowly(&iterator)
        return (received, iterator.highWaterMark, values.overflowCount)
      }
    }
    let (received, highWaterMark, overflow) = await Reader().read()
    #expect(received == (0..<2_000).map { $0 * 2 })
    #expect(highWaterMark <= 4 && overflow == 0)
  }

  @Test("a source subscribed on a queue (subscribe(on:)) pauses there and resumes there")
  func fromPausesOnQueue() async {
    let worker = QueueScheduler(name: "worker")
    let threads = Locked<Set<Bool>>([])
    let source = Signal<Int, Never>.from(0..<2_000).doNext { _ in
      threads.withLock { _ = $0.insert(Schedulers.current === worker) }
    }
    let values = source.subscribe(on: worker).values(bufferingPolicy: .bounded(4))
    var iterator = values.makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received == Array(0..<2_000))
    #expect(iterator.highWaterMark <= 4 && values.overflowCount == 0)
    #expect(threads.value == [true])  // every value, resumed ones included, sent on the worker
  }

  @Test("a Signal.from subscribed in the loop's task reads its sequence on the loop's executor, resumed walks too")
  func fromWalksOnTheLoopsExecutor() async {
    let loop = LoopOnQueue()
    let onLoopsQueue = DispatchSpecificKey<Bool>()
    loop.executor.queue.setSpecific(key: onLoopsQueue, value: true)
    let elsewhere = Locked(0)
    let source = ProbedRange(count: 2_000) {
      if DispatchQueue.getSpecific(key: onLoopsQueue) != true { elsewhere.increment() }
    }
    let (received, highWaterMark) = await loop.read(Signal.from(source).map { $0 * 2 })
    #expect(received == (0..<2_000).map { $0 * 2 })
    #expect(highWaterMark <= 4)  // it paused, hundreds of times, and was resumed as often
    // The first walk ran as the loop subscribed; each resumed one ran as the loop's next() made room: all of them on
    // the loop's executor.
    #expect(elsewhere.value == 0)
  }

  @Test("a Signal.from subscribed by a loop on the main actor reads its sequence on the main queue")
  @MainActor
  func fromWalksOnTheMainQueue() async {
    let elsewhere = Locked(0)
    let source = ProbedRange(count: 1_000) {
      if !isOnMainQueue() { elsewhere.increment() }
    }
    var iterator = Signal<Int, Never>.from(source).values(bufferingPolicy: .bounded(4)).makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received == Array(0..<1_000))
    #expect(iterator.highWaterMark <= 4)
    #expect(elsewhere.value == 0)  // a blocking read here would block the main queue: give it subscribe(on:)
  }

  @Test("materialize() carries the pause: one value past the bound at most, its terminal event")
  func materializeOneOver() async {
    let values = Signal<Int, Never>.from(0..<1_000).materialize().values(bufferingPolicy: .bounded(4))
    var iterator = values.makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received.count == 1_001)
    #expect(iterator.highWaterMark <= 4 + 1)
    #expect(values.overflowCount <= 1)
  }

  @Test("MemoizedSequence.signal(on:) pauses while the consumer is full")
  func memoizedSequencePauses() async {
    let sequence = MemoizedSequence(0..<1_000)
    let values = sequence.signal(on: QueueScheduler(name: "walk")).values(bufferingPolicy: .bounded(4))
    var iterator = values.makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received == Array(0..<1_000))
    #expect(iterator.highWaterMark <= 4 && values.overflowCount == 0)
  }

  @Test("AsyncSequence.signal pulls no further than the bound ahead of the consumer")
  func asyncSequencePauses() async {
    let pulled = CountingSequence.Counter()
    let values = CountingSequence(count: 1_000, pulled: pulled).signal.values(bufferingPolicy: .bounded(4))
    var iterator = values.makeAsyncIterator()
    var received: [Int] = []
    var furthestAhead = 0
    while let value = await iterator.next() {
      received.append(value)
      for _ in 0..<3 { await Task.yield() }
      furthestAhead = max(furthestAhead, pulled.count - received.count)
    }
    #expect(received == Array(0..<1_000))
    #expect(iterator.highWaterMark <= 4 && values.overflowCount == 0)
    // Buffered (at most 4), plus one pulled and waiting in `send` for room.
    #expect(furthestAhead <= 4 + 1)
  }

  @Test("a Signal.async body's await subscriber.send(_:) suspends while the consumer is full")
  func asyncBodySendSuspends() async {
    let sent = Locked(0)
    let signal = Signal<Int, Never>.async { subscriber in
      for value in 0..<1_000 {
        await subscriber.send(value)
        sent.increment()
      }
    }
    let values = signal.values(bufferingPolicy: .bounded(4))
    var iterator = values.makeAsyncIterator()
    var received: [Int] = []
    var furthestAhead = 0
    while let value = await iterator.next() {
      received.append(value)
      for _ in 0..<3 { await Task.yield() }
      furthestAhead = max(furthestAhead, sent.value - received.count)
    }
    #expect(received == Array(0..<1_000))
    #expect(iterator.highWaterMark <= 4 && values.overflowCount == 0)
    #expect(furthestAhead <= 4)
  }

  // MARK: Operators carry the pause, or end it visibly

  /// The one-input operators that send at most one value per value, on the sending thread: each carries the pause.
  static let carrying: [(name: String, apply: @Sendable (Signal<Int, Never>) -> Signal<Int, Never>)] = [
    ("map", { $0.map { $0 + 1 } }),
    ("filter", { $0.filter { $0.isMultiple(of: 3) } }),
    ("compactMap", { $0.compactMap { $0.isMultiple(of: 2) ? $0 : nil } }),
    ("scan", { $0.scan(0, +) }),
    ("take", { $0.take(3_000) }),
    ("skip", { $0.skip(10) }),
    ("take(while:)", { $0.take(while: { $0 < 4_000 }) }),
    ("skip(while:)", { $0.skip(while: { $0 < 100 }) }),
    ("doNext", { $0.doNext { _ in } }),
    ("distinctUntilChanged", { $0.map { $0 / 2 }.distinctUntilChanged() }),
    ("replace(with:)", { $0.replace(with: 7) }),
    ("materialize, dematerialize", { $0.materialize().dematerialize() }),
    ("promoteError, catch", { $0.promoteError(to: TestError.self).catch { _ in .empty } }),
    ("mapError", { $0.promoteError(to: TestError.self).mapError { _ in TestError(code: 1) }.catch { _ in .empty } }),
    ("doCompleted, finally", { $0.doCompleted {}.finally {} }),
    ("buffer(count:)", { $0.buffer(count: 5).map { $0.reduce(0, +) } }),
    ("startWith", { $0.startWith(-1) }),
    ("defer", { signal in .defer { signal } }),
    ("subscribe(on:)", { $0.subscribe(on: QueueScheduler(name: "carrying")) }),
  ]

  @Test("a synchronous one-input operator carries the pause: the source stays within the bound", arguments: carrying)
  func operatorCarriesThePause(
    _ step: (name: String, apply: @Sendable (Signal<Int, Never>) -> Signal<Int, Never>)
  ) async {
    let source = Signal<Int, Never>.from(0..<10_000)
    var unboundedIterator = step.apply(source).values.makeAsyncIterator()
    var expected: [Int] = []
    while let value = await unboundedIterator.next() { expected.append(value) }
    let values = step.apply(source).values(bufferingPolicy: .bounded(8))
    var iterator = values.makeAsyncIterator()
    let received = await readSlowly(&iterator)
    #expect(received == expected, "\(step.name)")
    #expect(iterator.highWaterMark <= 8, "\(step.name)")
    #expect(values.overflowCount == 0, "\(step.name)")
  }

  @Test("an operator that combines inputs or sends several values per input ends the pause: counted, not hung")
  func operatorsThatEndThePause() async {
    let source = Signal<Int, Never>.from(0..<1_000)
    // merge carries the pause since issue 28 (FlowControlConcurrencyTests); unbounded flattening does not.
    for (name, signal) in [
      ("flattenMap", source.flattenMap { .from([$0, $0]) }),
      ("concat", source.concat(.from(0..<10))),
      ("flatten()", source.map { Signal<Int, Never>.from([$0, $0]) }.flatten()),
      ("combineLatest", Signal<Int, Never>.return(0).combineLatest(with: source).map { $0.1 }),
    ] {
      let values = signal.values(bufferingPolicy: .bounded(8))
      var iterator = values.makeAsyncIterator()
      let received = await readSlowly(&iterator)
      #expect(received.count >= 1_000, "\(name)")
      #expect(values.overflowCount > 0, "\(name): the source ran unpaused, and the excess is visible")
    }
  }

  // deliver(on:) carries the pause since issue 28: FlowControlHopTests.

  // MARK: Cancellation frees producers at once

  @Test("leaving the loop frees a producer suspended in send(_:) at once")
  func leavingFreesSuspendedProducer() async {
    let producerReturned = Gate()
    let sendingThird = Gate()
    let signal = Signal<Int, Never>.async { subscriber in
      for value in 0..<1_000 {
        if value == 3 { sendingThird.open() }
        await subscriber.send(value)
        if Task.isCancelled { break }
      }
      producerReturned.open()
    }
    let ended = await finishes {
      for await _ in signal.values(bufferingPolicy: .bounded(2)) {
        // 0 was taken; 1 and 2 fill the buffer; the producer goes on to send(3), where it waits for room.
        await sendingThird.wait()
        break  // leaving must free it, though the consumer never makes room
      }
      await producerReturned.wait()
    }
    #expect(ended)
  }

  @Test("leaving the loop releases a paused Signal.from: its closures are gone once the loop has ended")
  func leavingReleasesPausedSource() async {
    let tracker = Locked<[WeakTracked]>([])
    do {
      let captured = Tracked()
      tracker.append(WeakTracked(captured))
      var count = 0
      for await _ in Signal<Int, Never>.from(0..<10_000).map({ value in withExtendedLifetime(captured) { value } })
        .values(bufferingPolicy: .bounded(4))
      {
        count += 1
        if count == 2 { break }  // the walk is paused (4 buffered): leaving disposes and resumes it to stop
      }
    }
    #expect(tracker.value.allSatisfy { $0.object == nil })
  }
}

/// A weak reference to a tracked object.
private struct WeakTracked: Sendable {
  weak var object: Tracked?
  init(_ object: Tracked) { self.object = object }
}
