import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("Command")
struct CommandTests {
  /// Work that sends `input * 10` and completes one virtual second after it is subscribed.
  private func delayedWork(_ scheduler: TestScheduler, runs: Locked<Int>? = nil)
    -> @Sendable (Int) -> Signal<
      Int, TestError
    >
  {
    { input in
      Signal.create { subscriber in
        runs?.increment()
        return scheduler.schedule(afterDelay: .seconds(1)) {
          subscriber.sendNext(input * 10)
          subscriber.sendCompleted()
        }
      }
    }
  }

  @Test("executing and enabled change on the scheduler: before the work starts, and when it ends")
  func stateTransitions() {
    let scheduler = TestScheduler()
    let runs = Locked(0)
    let command = Command(scheduler: scheduler, execute: delayedWork(scheduler, runs: runs))
    let executing = EventRecorder(command.executing)
    let enabled = EventRecorder(command.enabled)
    #expect(executing.values == [false] && enabled.values == [true])

    let result = EventRecorder(command.execute(1))
    #expect(executing.values == [false])  // delivered on the scheduler, not yet
    #expect(runs.value == 0)  // the work is subscribed on the scheduler, after the state changes
    scheduler.advance()
    #expect(executing.values == [false, true])
    #expect(enabled.values == [true, false])
    #expect(runs.value == 1)

    scheduler.advance(by: .milliseconds(999))
    #expect(executing.values == [false, true])
    scheduler.advance(by: .milliseconds(1))
    #expect(result.events == [.next(10), .completed])
    #expect(executing.values == [false, true, false])
    #expect(enabled.values == [true, false, true])
  }

  @Test("execute while an execution is in flight fails at once with notEnabled and runs nothing")
  func notEnabledWhileExecuting() {
    let scheduler = TestScheduler()
    let runs = Locked(0)
    let command = Command(scheduler: scheduler, execute: delayedWork(scheduler, runs: runs))
    _ = command.execute(1)
    let second = EventRecorder(command.execute(2))
    #expect(second.events == [.error(.notEnabled)])
    scheduler.run()
    #expect(runs.value == 1)
    #expect(EventRecorder(command.execute(3)).events.isEmpty)  // enabled again once the first has ended
  }

  @Test("with allowsConcurrentExecution, executions overlap, enabled stays true and executing spans them all")
  func concurrentExecution() {
    let scheduler = TestScheduler()
    let command = Command(allowsConcurrentExecution: true, scheduler: scheduler, execute: delayedWork(scheduler))
    let executing = EventRecorder(command.executing)
    let enabled = EventRecorder(command.enabled)
    let first = EventRecorder(command.execute(1))
    scheduler.advance(by: .milliseconds(500))
    let second = EventRecorder(command.execute(2))
    scheduler.advance(by: .milliseconds(500))
    #expect(first.events == [.next(10), .completed])
    #expect(executing.values == [false, true])
    scheduler.advance(by: .milliseconds(500))
    #expect(second.events == [.next(20), .completed])
    #expect(executing.values == [false, true, false])
    #expect(enabled.values == [true])
  }

  @Test("without concurrent execution, executing and enabled are never both true: enabled falls first, rises last")
  func executingAndEnabledNeverBothTrue() {
    let scheduler = TestScheduler()
    let command = Command(scheduler: scheduler, execute: delayedWork(scheduler))
    let log = Locked<[String]>([])
    command.executing.subscribeNext { log.append("executing \($0)") }
    command.enabled.subscribeNext { log.append("enabled \($0)") }
    _ = command.execute(1)
    scheduler.run()
    #expect(
      log.value == [
        "executing false", "enabled true", "enabled false", "executing true", "executing false", "enabled true",
      ])
  }

  @Test("the work starts after executing turned true, even if effects decided earlier were scheduled later")
  func workStartsAfterExecuting() {
    let scheduler = InterposingScheduler()
    let log = Locked<[String]>([])
    let first = Locked<(any Subscriber<Int, TestError>)?>(nil)
    let command = Command<Int, Int, TestError>(scheduler: scheduler) { input in
      Signal.create { subscriber in
        log.append("work \(input)")
        if input == 1 { first.value = subscriber }
        return nil
      }
    }
    command.executing.subscribeNext { log.append("executing \($0)") }
    _ = command.execute(1)
    scheduler.base.run()
    // Execution 1 ends. Between that decision and the scheduling of its effects, execution 2 starts, as another
    // thread may: its blocks are scheduled first, but must still deliver in the order decided.
    scheduler.beforeNextSchedule.value = { _ = command.execute(2) }
    first.value?.sendCompleted()
    scheduler.base.run()
    #expect(
      log.value == [
        "executing false", "executing true", "work 1", "executing false", "executing true", "work 2",
      ])
  }

  @Test("setting allowsConcurrentExecution during an execution re-enables the command")
  func toggleConcurrency() {
    let scheduler = TestScheduler()
    let command = Command(scheduler: scheduler, execute: delayedWork(scheduler))
    let enabled = EventRecorder(command.enabled)
    _ = command.execute(1)
    scheduler.advance()
    #expect(enabled.values == [true, false])
    command.allowsConcurrentExecution = true
    #expect(command.allowsConcurrentExecution)
    scheduler.advance()
    #expect(enabled.values == [true, false, true])
  }

  @Test("the enabled signal is sampled at creation and followed afterwards, on the scheduler")
  func enabledSignal() {
    let scheduler = TestScheduler()
    let input = BehaviorSubject<Bool, Never>(value: false)
    let command = Command(enabled: input, scheduler: scheduler, execute: delayedWork(scheduler))
    let enabled = EventRecorder(command.enabled)
    #expect(enabled.values == [false])
    #expect(EventRecorder(command.execute(1)).events == [.error(.notEnabled)])
    input.sendNext(true)
    #expect(enabled.values == [false])
    scheduler.advance()
    #expect(enabled.values == [false, true])
    #expect(EventRecorder(command.execute(1)).events.isEmpty)
  }

  @Test("a failing execution: execute fails with .failed, errors gets the failure as a value, before executing ends")
  func errors() {
    let scheduler = TestScheduler()
    let command = Command<Int, Int, TestError>(scheduler: scheduler) { input in
      .error(TestError(code: input))
    }
    let log = Locked<[String]>([])
    command.errors.subscribeNext { log.append("error \($0.code)") }
    command.executing.subscribeNext { log.append("executing \($0)") }
    let execution = Locked<[Event<Int, Never>]>([])
    command.executionSignals.subscribeNext { signal in
      signal.subscribeNext({ execution.append(.next($0)) }, completed: { execution.append(.completed) })
    }
    let result = EventRecorder(command.execute(4))
    scheduler.advance()
    #expect(result.events == [.error(.failed(TestError(code: 4)))])
    #expect(log.value == ["executing false", "executing true", "error 4", "executing false"])
    #expect(execution.value == [.completed])  // the inner signal of executionSignals ends without failing
  }

  @Test("errors receives the failure of an execution started before it was subscribed to")
  func errorsOfEarlierExecution() {
    let scheduler = TestScheduler()
    let command = Command<Int, Int, TestError>(scheduler: scheduler) { input in
      Signal.create { subscriber in
        scheduler.schedule(afterDelay: .seconds(1)) { subscriber.sendError(TestError(code: input)) }
      }
    }
    _ = command.execute(9)
    scheduler.advance()
    let errors = EventRecorder(command.errors)
    scheduler.advance(by: .seconds(1))
    #expect(errors.values == [TestError(code: 9)])
  }

  @Test("executionSignals sends each execution started after subscription, whose values are replayed")
  func executionSignals() {
    let scheduler = TestScheduler()
    let command = Command(scheduler: scheduler, execute: delayedWork(scheduler))
    _ = command.execute(1)
    scheduler.run()
    let values = Locked<[Int]>([])
    let count = Locked(0)
    command.executionSignals.subscribeNext { signal in
      count.increment()
      signal.subscribeNext { values.append($0) }
    }
    _ = command.execute(2)
    scheduler.run()
    #expect(count.value == 1)
    #expect(values.value == [20])
  }

  @Test("disposing a subscription to an execution does not stop it")
  func executionIsHot() {
    let scheduler = TestScheduler()
    let command = Command(scheduler: scheduler, execute: delayedWork(scheduler))
    let execution = command.execute(3)
    EventRecorder(execution).dispose()
    scheduler.run()
    #expect(EventRecorder(execution).events == [.next(30), .completed])
  }

  @Test("a Void command executes with execute()")
  func voidInput() {
    let scheduler = TestScheduler()
    let command = Command<Void, String, Never>(scheduler: scheduler) { .return("done") }
    let result = EventRecorder(command.execute())
    scheduler.run()
    #expect(result.values == ["done"])
  }

  @Test("deinitialising the command completes its signals and disposes its enabled subscription")
  func deinitialisation() {
    let scheduler = TestScheduler()
    let input = Subject<Bool, Never>()
    var command: Command<Int, Int, TestError>? = Command(
      enabled: input, scheduler: scheduler, execute: delayedWork(scheduler))
    let executing = EventRecorder(command!.executing)
    #expect(input.subscriberCount == 1)
    command = nil
    #expect(input.subscriberCount == 0)
    scheduler.run()
    #expect(executing.events == [.next(false), .completed])
  }

  @Test("eight threads executing at once: exactly one execution starts")
  func concurrentExecute() {
    let scheduler = TestScheduler()
    let runs = Locked(0)
    let command = Command(scheduler: scheduler, execute: delayedWork(scheduler, runs: runs))
    let rejected = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      ImmediateScheduler.shared.performAsCurrent {
        _ = command.execute(index).subscribeError { if $0 == .notEnabled { rejected.increment() } }
      }
    }
    scheduler.run()
    #expect(rejected.value == 7)
    #expect(runs.value == 1)
  }
}

/// A `TestScheduler` that runs a hook just before its next `schedule(_:)`: a test's way to act between a decision
/// and the scheduling of its delivery, as another thread may.
private final class InterposingScheduler: Scheduler {
  let base = TestScheduler()
  let beforeNextSchedule = Locked<(@Sendable () -> Void)?>(nil)

  var now: Date { base.now }

  func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    let hook = beforeNextSchedule.withLock { hook in
      defer { hook = nil }
      return hook
    }
    hook?()
    return base.schedule(action)
  }

  func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    base.schedule(after: date, action)
  }

  func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    base.schedule(after: date, repeatingEvery: interval, leeway: leeway, action)
  }
}
