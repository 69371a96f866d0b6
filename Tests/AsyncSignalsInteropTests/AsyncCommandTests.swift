import AsyncSignals
import AsyncSignalsInterop
import Testing

/// Async work a test holds and releases: it says when it started, counts its runs, and returns once released,
/// reporting whether its task had been cancelled by then.
final class HeldWork: Sendable {
  let started = Gate()
  let release = Gate()
  let runs = Locked(0)

  func run() async -> Bool {
    runs.increment()
    started.open()
    await release.wait()
    return Task.isCancelled
  }
}

/// A command's state signals, recorded as they are delivered.
final class CommandRecorder<Output: Sendable, Failure: Error>: Sendable {
  let executing = Locked<[Bool]>([])
  let enabled = Locked<[Bool]>([])
  let errors = Locked<[Failure]>([])
  let outputs = Locked<[Output]>([])

  init<Input>(_ command: Command<Input, Output, Failure>) {
    command.executing.subscribeNext { self.executing.append($0) }
    command.enabled.subscribeNext { self.enabled.append($0) }
    command.errors.subscribeNext { self.errors.append($0) }
    command.executionSignals.flatten().subscribeNext { self.outputs.append($0) }
  }
}

// `Command(…execute:)` with async work, in virtual time: the command's state signals deliver on a
// TestScheduler, which runs only when the test advances it; the async work is held by gates. `@MainActor` so
// that subscribing to the state signals (behaviour subjects) is synchronous.
@Suite("Commands with async work")
@MainActor
struct AsyncCommandTests {
  @Test("executing and enabled change around an async execution; its value reaches execute(_:) and executionSignals")
  func executingAndEnabled() async throws {
    let scheduler = TestScheduler()
    let work = HeldWork()
    let command = Command<Int, String, TestError>(scheduler: scheduler) { input in
      _ = await work.run()
      return "done \(input)"
    }
    let recorder = CommandRecorder(command)
    #expect(recorder.executing.value == [false])
    #expect(recorder.enabled.value == [true])

    let execution = command.execute(7)
    // Decided now, delivered on the scheduler; the work has not started.
    #expect(recorder.executing.value == [false])
    #expect(!work.started.isOpen)
    scheduler.advance()
    #expect(recorder.executing.value == [false, true])
    #expect(recorder.enabled.value == [true, false])
    await work.started.wait()  // the execution's task started when the scheduler ran

    work.release.open()
    #expect(try await execution.toArray() == ["done 7"])
    // The end is decided when the work returns; the state signals change at the scheduler's next turn.
    #expect(recorder.executing.value == [false, true])
    scheduler.advance()
    #expect(recorder.executing.value == [false, true, false])
    #expect(recorder.enabled.value == [true, false, true])
    #expect(recorder.outputs.value == ["done 7"])
    #expect(recorder.errors.value.isEmpty)
    #expect(work.runs.value == 1)
  }

  @Test("a failing async execution fails execute's signal with CommandError.failed and sends the typed error on errors")
  func failingExecution() async {
    let scheduler = TestScheduler()
    let command = Command<Int, String, TestError>(scheduler: scheduler) { input async throws(TestError) -> String in
      throw TestError(code: input)
    }
    let recorder = CommandRecorder(command)
    let execution = command.execute(5)
    scheduler.advance()
    do {
      _ = try await execution.toArray()
      Issue.record("the execution should have failed")
    } catch {
      // `error` is a `CommandError<TestError>`: the work's failure, typed, wrapped.
      #expect(error == .failed(TestError(code: 5)))
      #expect(error.failure == TestError(code: 5))
    }
    scheduler.advance()
    #expect(recorder.errors.value == [TestError(code: 5)])
    #expect(recorder.executing.value == [false, true, false])
    #expect(recorder.enabled.value == [true, false, true])
    #expect(recorder.outputs.value.isEmpty)
  }

  @Test("an execution runs to its end: disposing a subscriber or cancelling an awaiting task does not cancel the work")
  func cancelledConsumers() async throws {
    let scheduler = TestScheduler()
    let work = HeldWork()
    let command = Command<Void, Bool, Never>(scheduler: scheduler) { await work.run() }
    let recorder = CommandRecorder(command)
    let execution = command.execute()
    scheduler.advance()
    await work.started.wait()

    // A subscriber that goes away.
    let received = Locked<[Bool]>([])
    let subscription = execution.subscribeNext({ received.append($0) }, error: { _ in })
    subscription.dispose()

    // A task awaiting the execution, cancelled while it waits: it returns nil at once.
    let probe = ProbedSignal(execution)
    let waiting = Task { try await probe.signal.first() }
    await probe.subscribed.wait()
    waiting.cancel()
    await probe.disposed.wait()
    #expect(try await waiting.value == nil)

    // Neither cancelled the work, which is still executing.
    scheduler.advance()
    #expect(recorder.executing.value == [false, true])
    work.release.open()
    #expect(try await execution.toArray() == [false])  // false: its task was never cancelled
    scheduler.advance()
    #expect(recorder.executing.value == [false, true, false])
    #expect(recorder.outputs.value == [false])
    #expect(received.value.isEmpty)
  }

  @Test("disposing an execution's subscription cancels its task: Signal.async work with take(until:)")
  func cancelledExecution() async throws {
    let scheduler = TestScheduler()
    let work = CancellableWork()
    let cancel = Subject<Void, Never>()
    let command = Command<Void, String, Never>(scheduler: scheduler) {
      Signal.async {
        await work.run()
        return "late"
      }.take(until: cancel)
    }
    let recorder = CommandRecorder(command)
    let execution = command.execute()
    scheduler.advance()
    await work.started.wait()
    cancel.sendNext(())
    await work.cancelled.wait()  // take(until:) disposed the work's subscription: its task was cancelled
    #expect(try await execution.toArray() == [])  // the execution completed without a value
    scheduler.advance()
    #expect(recorder.executing.value == [false, true, false])
    #expect(recorder.errors.value.isEmpty)
    #expect(recorder.outputs.value.isEmpty)
  }

  @Test("concurrent async executions overlap when allowed; the command stays enabled; executing ends with the last")
  func concurrentExecutions() async throws {
    let scheduler = TestScheduler()
    let works = [HeldWork(), HeldWork()]
    let command = Command<Int, Int, Never>(allowsConcurrentExecution: true, scheduler: scheduler) { input in
      _ = await works[input].run()
      return input * 10
    }
    let recorder = CommandRecorder(command)
    let first = command.execute(0)
    let second = command.execute(1)
    scheduler.advance()
    // Both tasks are running at once.
    await works[0].started.wait()
    await works[1].started.wait()
    #expect(recorder.executing.value == [false, true])
    #expect(recorder.enabled.value == [true])

    works[1].release.open()
    #expect(try await second.toArray() == [10])
    scheduler.advance()
    #expect(recorder.executing.value == [false, true])  // the first is still in flight

    works[0].release.open()
    #expect(try await first.toArray() == [0])
    scheduler.advance()
    #expect(recorder.executing.value == [false, true, false])
    #expect(recorder.enabled.value == [true])
    #expect(recorder.outputs.value == [10, 0])
  }

  @Test("an execution while another is in flight fails with CommandError.notEnabled and runs nothing")
  func notEnabledWhileExecuting() async throws {
    let scheduler = TestScheduler()
    let work = HeldWork()
    let command = Command<Int, Int, Never>(scheduler: scheduler) { input in
      _ = await work.run()
      return input
    }
    let recorder = CommandRecorder(command)
    let first = command.execute(1)
    // Decided from the immediate state, before the scheduler has run: the first execution is in flight.
    let refused = command.execute(2)
    await #expect(throws: CommandError<Never>.notEnabled) { try await refused.toArray() }

    scheduler.advance()
    await work.started.wait()
    work.release.open()
    #expect(try await first.toArray() == [1])
    scheduler.advance()
    #expect(work.runs.value == 1)
    #expect(recorder.outputs.value == [1])
    #expect(recorder.errors.value.isEmpty)  // notEnabled is not a failure of the work
  }

  @Test("a command disabled by its enabled signal refuses async executions")
  func notEnabledBySignal() async {
    let scheduler = TestScheduler()
    let runs = Locked(0)
    let enabled = BehaviorSubject<Bool, Never>(value: false)
    let command = Command<Void, Int, Never>(enabled: enabled, scheduler: scheduler) { runs.increment() }
    await #expect(throws: CommandError<Never>.notEnabled) { try await command.execute().toArray() }
    scheduler.run()
    #expect(runs.value == 0)
  }

  @Test("the work runs detached: executed on the main actor with the main scheduler, it runs off the main actor")
  func detachedFromTheCaller() async throws {
    // The default scheduler is the main queue's; a closure literal is nonisolated and runs in its own task.
    let command = Command<Void, Bool, Never> { Schedulers.current == nil }
    #expect(try await command.execute().first() == true)
  }
}
