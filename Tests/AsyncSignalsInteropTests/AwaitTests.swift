import AsyncSignals
import AsyncSignalsInterop
import Testing

// first(), last(), toArray(), waitUntilCompleted() and forEach. `@MainActor` so that a `create` body runs at
// once, inside the call.
@Suite("Awaiting results")
@MainActor
struct AwaitTests {
  /// A signal that sends `values` and then completes (or fails with `failure`), all at subscription.
  private func numbers(_ values: [Int], failure: TestError? = nil) -> Signal<Int, TestError> {
    .create { subscriber in
      for value in values { subscriber.sendNext(value) }
      if let failure { subscriber.sendError(failure) } else { subscriber.sendCompleted() }
      return nil
    }
  }

  // MARK: first()

  @Test("first() returns the first value and disposes the subscription at once")
  func firstValue() async throws {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let waiting = Task { await probe.signal.first() }
    await probe.subscribed.wait()
    subject.sendNext(1)
    #expect(await waiting.value == 1)
    #expect(probe.disposals.value == 1)
    #expect(subject.subscriberCount == 0)
    #expect(try await numbers([5, 6]).first() == 5)
  }

  @Test("first() returns nil for a signal that completes empty, and throws a typed failure")
  func firstEmptyAndFailure() async throws {
    #expect(try await numbers([]).first() == nil)
    do {
      _ = try await numbers([], failure: TestError(code: 1)).first()
      Issue.record("first() should have thrown")
    } catch {
      let failure: TestError = error
      #expect(failure.code == 1)
    }
  }

  @Test("cancelling first() disposes the subscription and returns nil")
  func firstCancelled() async {
    let probe = ProbedSignal(Subject<Int, Never>())
    let waiting = Task { await probe.signal.first() }
    await probe.subscribed.wait()
    waiting.cancel()
    await probe.disposed.wait()
    #expect(await waiting.value == nil)
  }

  // MARK: last()

  @Test("last() returns the last value once the signal completes, nil when empty, and throws typed")
  func lastValue() async throws {
    #expect(try await numbers([1, 2, 3]).last() == 3)
    #expect(try await numbers([]).last() == nil)
    await #expect(throws: TestError(code: 2)) { try await numbers([1], failure: TestError(code: 2)).last() }
  }

  @Test("cancelling last() disposes the subscription and returns the latest value so far")
  func lastCancelled() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let waiting = Task { await probe.signal.last() }
    await probe.subscribed.wait()
    subject.sendNext(1)
    subject.sendNext(2)
    waiting.cancel()
    await probe.disposed.wait()
    #expect(await waiting.value == 2)
    #expect(subject.subscriberCount == 0)
  }

  // MARK: toArray()

  @Test("toArray() returns every value in order, and throws a typed failure")
  func toArrayValues() async throws {
    #expect(try await numbers([1, 2, 3]).toArray() == [1, 2, 3])
    #expect(try await numbers([]).toArray() == [])
    await #expect(throws: TestError(code: 3)) { try await numbers([1], failure: TestError(code: 3)).toArray() }
  }

  @Test("cancelling toArray() disposes the subscription and returns the values so far")
  func toArrayCancelled() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let waiting = Task { await probe.signal.toArray() }
    await probe.subscribed.wait()
    subject.sendNext(1)
    subject.sendNext(2)
    waiting.cancel()
    await probe.disposed.wait()
    subject.sendNext(3)
    #expect(await waiting.value == [1, 2])
  }

  // MARK: waitUntilCompleted()

  @Test("waitUntilCompleted() returns on completion and throws a typed failure")
  func waitUntilCompleted() async throws {
    try await numbers([1, 2]).waitUntilCompleted()
    do {
      try await numbers([1], failure: TestError(code: 4)).waitUntilCompleted()
      Issue.record("waitUntilCompleted() should have thrown")
    } catch {
      #expect(error.code == 4)
    }
  }

  @Test("waitUntilCompleted() waits for a completion sent later, from another thread")
  func waitUntilCompletedLater() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let finished = Locked(false)
    let waiting = Task {
      await probe.signal.waitUntilCompleted()
      finished.value = true
    }
    await probe.subscribed.wait()
    subject.sendNext(1)
    #expect(!finished.value)
    await withCheckedContinuation { done in
      QueueScheduler(name: "completer").schedule {
        subject.sendCompleted()
        done.resume()
      }
    }
    await waiting.value
    #expect(finished.value)
  }

  @Test("cancelling waitUntilCompleted() disposes the subscription and returns")
  func waitUntilCompletedCancelled() async {
    let probe = ProbedSignal(Subject<Int, Never>())
    let waiting = Task { await probe.signal.waitUntilCompleted() }
    await probe.subscribed.wait()
    waiting.cancel()
    await probe.disposed.wait()
    await waiting.value
  }

  @Test("an awaiting task cancelled before the call does not subscribe")
  func cancelledBeforeAwaiting() async {
    let probe = ProbedSignal(Subject<Int, Never>())
    let start = Gate()
    let waiting = Task {
      await start.wait()
      return await probe.signal.toArray()
    }
    waiting.cancel()
    start.open()
    #expect(await waiting.value == [])
    #expect(probe.subscriptions.value == 0)
  }

  // MARK: forEach

  @Test("forEach calls its body with each value in order, in the caller's isolation")
  func forEachValues() async throws {
    var seen: [Int] = []  // main-actor state, mutated by the body
    try await numbers([1, 2, 3]).forEach { value in
      MainActor.assertIsolated()
      seen.append(value)
    }
    #expect(seen == [1, 2, 3])
  }

  @Test("forEach throws the typed failure after the values sent before it")
  func forEachFailure() async {
    var seen: [Int] = []
    do {
      try await numbers([1, 2], failure: TestError(code: 5)).forEach { seen.append($0) }
      Issue.record("forEach should have thrown")
    } catch {
      #expect(error.code == 5)
    }
    #expect(seen == [1, 2])
  }

  @Test("cancelling forEach disposes the subscription and returns")
  func forEachCancelled() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let seen = Locked<[Int]>([])
    let gotFirst = Gate()
    let waiting = Task {
      await probe.signal.forEach { value in
        seen.append(value)
        gotFirst.open()
      }
    }
    await probe.subscribed.wait()
    subject.sendNext(1)
    await gotFirst.wait()
    waiting.cancel()
    await probe.disposed.wait()
    await waiting.value
    subject.sendNext(2)
    #expect(seen.value == [1])
    #expect(subject.subscriberCount == 0)
  }
}
