import AsyncSignals
import AsyncSignalsInterop
import Testing

// Signal → AsyncSequence. Suites are `@MainActor` where a test needs a signal's subscribe body to run at
// once, inside the first `next()` (a scheduler is current on the main queue, guarantee 5).
@Suite("Signal.values")
@MainActor
struct SignalSequenceTests {
  // MARK: Values and termination

  @Test("a loop receives every value in order and ends when the signal completes")
  func valuesThenCompletion() async {
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 1...3 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    var received: [Int] = []
    for await value in signal.values { received.append(value) }
    #expect(received == [1, 2, 3])
  }

  @Test("a failure is thrown as the signal's own type, after the values sent before it")
  func typedFailure() async {
    let signal = Signal<Int, TestError>.create { subscriber in
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendError(TestError(code: 7))
      return nil
    }
    var received: [Int] = []
    do {
      for try await value in signal.values { received.append(value) }
      Issue.record("the loop should have thrown")
    } catch {
      let failure: TestError = error  // typed: no cast
      #expect(failure.code == 7)
    }
    #expect(received == [1, 2])
  }

  @Test("after throwing once, the iterator ends")
  func endsAfterFailure() async throws {
    var iterator = Signal<Int, TestError>.error(TestError(code: 1)).values.makeAsyncIterator()
    do {
      _ = try await iterator.next()
      Issue.record("next() should have thrown")
    } catch {
      #expect(error == TestError(code: 1))
    }
    #expect(try await iterator.next() == nil)
  }

  @Test("values sent from another thread reach a waiting consumer")
  func valuesFromAnotherThread() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let consumer = Task {
      var received: [Int] = []
      for await value in probe.signal.values { received.append(value) }
      return received
    }
    await probe.subscribed.wait()
    let worker = QueueScheduler(name: "values-test")
    await withCheckedContinuation { done in
      worker.schedule {
        for value in 0..<100 { subject.sendNext(value) }
        subject.sendCompleted()
        done.resume()
      }
    }
    #expect(await consumer.value == Array(0..<100))
  }

  // MARK: Cold stays cold

  @Test("each iterator is its own subscription, made at its first next(), not when it is created")
  func eachIteratorSubscribes() async {
    let subscriptions = Locked(0)
    let signal = Signal<Int, Never>.create { subscriber in
      let count = subscriptions.increment()
      subscriber.sendNext(count)
      subscriber.sendCompleted()
      return nil
    }
    let sequence = signal.values
    var first = sequence.makeAsyncIterator()
    var second = sequence.makeAsyncIterator()
    #expect(subscriptions.value == 0)
    #expect(await first.next(isolation: #isolation) == 1)
    #expect(subscriptions.value == 1)
    #expect(await second.next(isolation: #isolation) == 2)
    #expect(subscriptions.value == 2)
    #expect(await first.next(isolation: #isolation) == nil)
    #expect(await second.next(isolation: #isolation) == nil)
  }

  // MARK: Buffering

  @Test("bufferingNewest(n) keeps the newest n values and counts and reports the drops")
  func bufferingNewest() async {
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }  // all sent before the consumer takes one
      subscriber.sendCompleted()
      return nil
    }
    let dropped = Locked<[Int]>([])
    let sequence = signal.values(bufferingPolicy: .bufferingNewest(2)) { dropped.append($0) }
    var iterator = sequence.makeAsyncIterator()
    #expect(await iterator.next(isolation: #isolation) == 4)
    #expect(await iterator.next(isolation: #isolation) == 5)
    #expect(await iterator.next(isolation: #isolation) == nil)
    #expect(dropped.value == [1, 2, 3])
    #expect(iterator.droppedCount == 3)
    #expect(sequence.droppedCount == 3)
  }

  @Test("bufferingOldest(n) keeps the oldest n values and counts and reports the drops")
  func bufferingOldest() async {
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let dropped = Locked<[Int]>([])
    let sequence = signal.values(bufferingPolicy: .bufferingOldest(2)) { dropped.append($0) }
    var received: [Int] = []
    for await value in sequence { received.append(value) }
    #expect(received == [1, 2])
    #expect(dropped.value == [3, 4, 5])
    #expect(sequence.droppedCount == 3)
  }

  @Test("the sequence's drop count adds up the drops of all its iterators")
  func dropCountAcrossIterators() async {
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 1...4 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let sequence = signal.values(bufferingPolicy: .bufferingNewest(1))
    for _ in 0..<2 {
      var received: [Int] = []
      for await value in sequence { received.append(value) }
      #expect(received == [4])
    }
    #expect(sequence.droppedCount == 6)
  }

  @Test("a limit of zero delivers only to a consumer already waiting, and counts the rest")
  func limitZero() async {
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 1...3 { subscriber.sendNext(value) }  // sent inside the first next(): nobody waits yet
      // Runs on the main queue after the main actor's current job, in which the consumer suspends.
      QueueScheduler.main.schedule {
        subscriber.sendNext(4)
        subscriber.sendCompleted()
      }
      return nil
    }
    let sequence = signal.values(bufferingPolicy: .bufferingNewest(0))
    var iterator = sequence.makeAsyncIterator()
    #expect(await iterator.next(isolation: #isolation) == 4)
    #expect(await iterator.next(isolation: #isolation) == nil)
    #expect(sequence.droppedCount == 3)
  }

  @Test("an unbounded sequence drops nothing")
  func unboundedDropsNothing() async {
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 1...1000 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let sequence = signal.values
    var count = 0
    for await _ in sequence { count += 1 }
    #expect(count == 1000)
    #expect(sequence.droppedCount == 0)
    #expect(sequence.bufferingPolicy == .unbounded)
  }

  @Test("a negative buffer limit stops with a message naming the method and argument (guarantee 9)")
  func negativeLimit() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.values(bufferingPolicy: .bufferingNewest(-1))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("values(bufferingPolicy:onDrop:): bufferingNewest's limit must not be negative"))
  }

  // MARK: Cancellation

  @Test("cancelling the consuming task disposes the subscription and the upstream stops sending")
  func cancellingTheTask() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let received = Locked<[Int]>([])
    let gotFirst = Gate()
    let consumer = Task {
      for await value in probe.signal.values {
        received.append(value)
        gotFirst.open()
      }
    }
    await probe.subscribed.wait()
    subject.sendNext(1)
    await gotFirst.wait()
    consumer.cancel()
    await probe.disposed.wait()  // the signal's dispose action ran
    await consumer.value  // and the loop ended
    #expect(subject.subscriberCount == 0)
    subject.sendNext(2)
    #expect(received.value == [1])
  }

  @Test("breaking out of the loop disposes the subscription before the next statement")
  func breakingOut() async {
    let probe = ProbedSignal<Int, Never> { subscriber in
      for value in 1...3 { subscriber.sendNext(value) }
      return nil
    }
    for await value in probe.signal.values where value == 2 { break }
    #expect(probe.disposals.value == 1)
  }

  @Test("doDisposed runs when a loop is left early or its task is cancelled while the signal is live, not at the end")
  func doDisposedAndLoops() async {
    let runs = Locked(0)
    let subject = Subject<Int, Never>()
    let live = ProbedSignal(subject)
    let leaving = Task {
      for await _ in live.signal.doDisposed({ runs.increment() }).values { break }
    }
    await live.subscribed.wait()
    subject.sendNext(1)
    await leaving.value
    #expect(runs.value == 1)
    #expect(live.disposals.value == 1)

    let cancelled = ProbedSignal(subject)
    let gotFirst = Gate()
    let consumer = Task {
      for await _ in cancelled.signal.doDisposed({ runs.increment() }).values { gotFirst.open() }
    }
    await cancelled.subscribed.wait()
    subject.sendNext(2)
    await gotFirst.wait()
    consumer.cancel()
    await cancelled.disposed.wait()
    await consumer.value
    #expect(runs.value == 2)

    // A signal that has already completed, its values waiting in the loop's buffer, is not disposed by a break.
    let finished = Signal<Int, Never>.from([1, 2, 3]).doDisposed { runs.increment() }
    for await value in finished.values where value == 2 { break }
    #expect(runs.value == 2)
  }

  /// The documented rule (Getting Started, Structured Concurrency, `values`): leaving a loop that sits in a
  /// function disposes the subscription by the time the function returns, however the loop is left. (In
  /// top-level code Swift never destroys the iterator, so there it does not; that cannot be a test, which is
  /// always a function, and the docs say so.)
  @Test("leaving a loop inside a function, by break, return or a thrown error, disposes before it returns")
  func leavingInsideAFunction() async throws {
    struct Stop: Error {}
    let probe = ProbedSignal<Int, Never> { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }
      return nil  // never completes: only leaving the loop can end the subscription
    }
    func breaks() async -> Int {
      var last = 0
      for await value in probe.signal.values {
        last = value
        if value == 2 { break }
      }
      return last
    }
    func returns() async -> Int {
      for await value in probe.signal.values where value == 3 { return value }
      return 0
    }
    func throwsOut() async throws -> Int {
      for await value in probe.signal.values where value == 4 { throw Stop() }
      return 0
    }
    #expect(await breaks() == 2)
    #expect(probe.disposals.value == 1)
    #expect(await returns() == 3)
    #expect(probe.disposals.value == 2)
    await #expect(throws: Stop.self) { try await throwsOut() }
    #expect(probe.disposals.value == 3)
    #expect(probe.subscriptions.value == 3)
  }

  @Test("dropping the iterator disposes the subscription")
  func droppingTheIterator() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    do {
      var iterator = probe.signal.values.makeAsyncIterator()
      subject.sendNext(0)  // not subscribed yet: nobody receives it
      let consumer = Task {
        await probe.subscribed.wait()
        subject.sendNext(1)
      }
      #expect(await iterator.next(isolation: #isolation) == 1)
      await consumer.value
      #expect(subject.subscriberCount == 1)
    }
    #expect(probe.disposals.value == 1)
    #expect(subject.subscriberCount == 0)
  }

  @Test("a task cancelled before iterating ends at once without subscribing")
  func cancelledBeforeIterating() async {
    let probe = ProbedSignal<Int, Never> { subscriber in
      subscriber.sendNext(1)
      return nil
    }
    let start = Gate()
    let consumer = Task {
      await start.wait()
      var received: [Int] = []
      for await value in probe.signal.values { received.append(value) }
      return received
    }
    consumer.cancel()
    start.open()
    #expect(await consumer.value == [])
    #expect(probe.subscriptions.value == 0)
  }

  @Test("after a loop ends, by completion, break or cancellation, nothing keeps the signal (guarantee 8)")
  func nothingLeaks() async {
    // Each iteration's storage holds the signal; if a subscription kept it, the signal's body would keep
    // `tracked` alive.
    weak var completed: Tracked?
    weak var broken: Tracked?
    weak var cancelled: Tracked?
    do {
      let tracked = Tracked()
      completed = tracked
      let signal = Signal<Int, Never>.create { subscriber in
        withExtendedLifetime(tracked) { subscriber.sendNext(1) }
        subscriber.sendCompleted()
        return nil
      }
      for await _ in signal.values {}
    }
    do {
      let tracked = Tracked()
      broken = tracked
      let signal = Signal<Int, Never>.create { subscriber in
        withExtendedLifetime(tracked) { subscriber.sendNext(1) }
        return nil
      }
      for await _ in signal.values { break }
    }
    do {
      let tracked = Tracked()
      cancelled = tracked
      let probe = ProbedSignal<Int, Never> { _ in withExtendedLifetime(tracked) { nil } }
      let consumer = Task { for await _ in probe.signal.values {} }
      await probe.subscribed.wait()
      consumer.cancel()
      await consumer.value
    }
    #expect(completed == nil)
    #expect(broken == nil)
    #expect(cancelled == nil)
  }

  @Test("a consumer cancelled while its loop body runs stops at its next call, before any buffered value")
  func cancelledWhileBusy() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let inBody = Gate()
    let resume = Gate()
    let received = Locked<[Int]>([])
    let consumer = Task {
      for await value in probe.signal.values {
        received.append(value)
        inBody.open()
        await resume.wait()
      }
    }
    await probe.subscribed.wait()
    subject.sendNext(1)
    await inBody.wait()
    subject.sendNext(2)  // buffered while the body waits
    consumer.cancel()
    resume.open()
    await consumer.value
    #expect(received.value == [1])
    #expect(probe.disposals.value == 1)
  }

  // MARK: A consumer that falls behind

  @Test("values buffered while the consumer was busy come in order, before later ones and the failure")
  func backlogThenLaterValues() async {
    let subject = ReplaySubject<Int, TestError>()
    for value in 1...3 { subject.sendNext(value) }
    var iterator = subject.values.makeAsyncIterator()
    var received: [Int] = []
    var failure: TestError?
    do {
      // The first call subscribes: 1, 2 and 3 are replayed at once; the consumer takes all three, returns 1.
      if let value = try await iterator.next() { received.append(value) }
      subject.sendNext(4)
      if let value = try await iterator.next() { received.append(value) }
      subject.sendNext(5)
      subject.sendError(TestError(code: 9))
      while let value = try await iterator.next() { received.append(value) }
    } catch {
      failure = error
    }
    #expect(received == [1, 2, 3, 4, 5])
    #expect(failure == TestError(code: 9))
  }

  @Test("a consumer cancelled with a backlog taken but not yet handed out receives none of it")
  func cancelledWithBacklog() async {
    let subject = ReplaySubject<Int, Never>()
    for value in 1...3 { subject.sendNext(value) }
    let consumer = Task { () -> [Int?] in
      var iterator = subject.values.makeAsyncIterator()
      let first = await iterator.next()  // takes 1, 2 and 3 at once
      withUnsafeCurrentTask { $0?.cancel() }
      return [first, await iterator.next(), await iterator.next()]
    }
    #expect(await consumer.value == [1, nil, nil])
    #expect(subject.subscriberCount == 0)
  }
}
