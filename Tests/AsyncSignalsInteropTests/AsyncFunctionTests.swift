import AsyncSignals
import AsyncSignalsInterop
import Testing

/// Work that waits until its task is cancelled, and says when it started and when it was cancelled.
final class CancellableWork: Sendable {
  let started = Gate()
  let cancelled = Gate()

  func run() async {
    await withTaskCancellationHandler {
      started.open()
      await cancelled.wait()
    } onCancel: {
      cancelled.open()
    }
  }
}

@Suite("Signal.async")
struct AsyncFunctionTests {
  // MARK: One value from an async function

  @Test("an async function's result is sent, then completion")
  func functionValue() async {
    let signal = Signal<Int, Never>.async { 42 }
    #expect(await signal.toArray() == [42])
  }

  @Test("an async function's typed error becomes the signal's failure")
  func functionFailure() async {
    let signal = Signal<Int, TestError>.async { () async throws(TestError) -> Int in throw TestError(code: 8) }
    await #expect(throws: TestError(code: 8)) { try await signal.toArray() }
  }

  @Test("the function runs once per subscription")
  func functionPerSubscription() async {
    let runs = Locked(0)
    let signal = Signal<Int, Never>.async { runs.increment() }
    #expect(await signal.first() == 1)
    #expect(await signal.first() == 2)
  }

  @Test("disposing the subscription cancels the function's task; its result is not sent")
  func functionCancelled() async {
    let work = CancellableWork()
    let received = Locked<[Event<String, Never>]>([])
    let signal = Signal<String, Never>.async {
      await work.run()
      return "late"
    }
    let subscription = signal.subscribeNext({ received.append(.next($0)) }, completed: { received.append(.completed) })
    await work.started.wait()
    subscription.dispose()
    await work.cancelled.wait()
    #expect(received.value.isEmpty)
  }

  @Test("subscribing from the main actor does not run the function on the main queue")
  @MainActor
  func functionOffTheMainActor() async {
    let signal = Signal<Bool, Never>.async { Schedulers.current == nil }
    #expect(await signal.first() == true)
  }

  // MARK: Many values from an async closure

  @Test("an async closure's sends are delivered in order; returning completes")
  func closureValues() async {
    let signal = Signal<Int, Never>.async { subscriber in
      for value in 1...3 {
        await Task.yield()
        subscriber.sendNext(value)
      }
    }
    #expect(await signal.toArray() == [1, 2, 3])
  }

  @Test("an async closure that throws fails the signal with the typed error, after its values")
  func closureFailure() async {
    let signal = Signal<Int, TestError>.async { subscriber throws(TestError) in
      subscriber.sendNext(1)
      throw TestError(code: 2)
    }
    var received: [Int] = []
    do {
      for try await value in signal.values { received.append(value) }
      Issue.record("the loop should have thrown")
    } catch {
      #expect(error.code == 2)
    }
    #expect(received == [1])
  }

  @Test("an async closure that terminates the subscriber itself is not completed again")
  func closureTerminatesItself() async {
    let signal = Signal<Int, TestError>.async { subscriber in
      subscriber.sendNext(1)
      subscriber.sendError(TestError(code: 1))
      subscriber.sendNext(2)  // ignored: the subscription has ended
    }
    await #expect(throws: TestError(code: 1)) { try await signal.toArray() }
  }

  @Test("disposing the subscription cancels the closure's task")
  func closureCancelled() async {
    let work = CancellableWork()
    let received = Locked<[Event<Int, Never>]>([])
    let signal = Signal<Int, Never>.async { subscriber in
      subscriber.sendNext(1)
      await work.run()
      subscriber.sendNext(2)  // after disposal: ignored
    }
    let subscription = signal.subscribeNext({ received.append(.next($0)) }, completed: { received.append(.completed) })
    await work.started.wait()
    subscription.dispose()
    await work.cancelled.wait()
    #expect(received.value == [.next(1)])
  }
}
