import Dispatch
import Foundation
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// Async work that takes many hops of the concurrency runtime before it returns: never done by the time a test
/// that does not wait for it looks.
private func slowly<T: Sendable>(_ value: T) async -> T {
  for _ in 0..<200 { await Task.yield() }
  return value
}

// `TestScheduler.settle()` with the async work of AsyncSignalsInterop (`Signal.async`, commands with async work).
// No test sleeps or polls: each waits through `settle()` itself. The tests of the safety net give it a short
// timeout, which is what they test.
@MainActor
@Suite("TestScheduler.settle: async work in virtual time")
struct SettleTests {
  // MARK: The two shapes of issue 22

  @Test("a Command with async work: advance() runs its start; settle() waits for the work and runs its end")
  func commandWithAsyncWork() async throws {
    let scheduler = TestScheduler()
    let gate = Gate()
    let command = Command<Int, String, TestError>(scheduler: scheduler) { input in
      await gate.wait()  // looks busy to settle(): nothing it can see
      return await slowly("done \(input)")
    }
    let recorder = CommandRecorder(command)
    _ = command.execute(7)
    scheduler.advance()
    #expect(recorder.executing.value == [false, true])  // the work's task has started, and cannot end yet
    #expect(scheduler.pendingAsyncWork == 1)
    gate.open()
    try await scheduler.settle()  // waits for the task to end, then runs the end it scheduled
    #expect(recorder.executing.value == [false, true, false])
    #expect(recorder.enabled.value == [true, false, true])
    #expect(recorder.outputs.value == ["done 7"])
    #expect(scheduler.pendingAsyncWork == 0)
  }

  @Test("a Command whose async work fails: settle() delivers the error on errors")
  func commandWithFailingAsyncWork() async throws {
    let scheduler = TestScheduler()
    let command = Command<Int, String, TestError>(scheduler: scheduler) { input async throws(TestError) -> String in
      _ = await slowly(input)
      throw TestError(code: input)
    }
    let recorder = CommandRecorder(command)
    _ = command.execute(5)
    try await scheduler.settle()  // runs the start too: no advance() needed
    #expect(recorder.errors.value == [TestError(code: 5)])
    #expect(recorder.executing.value == [false, true, false])
  }

  @Test("flattenMap to Signal.async under throttle: settle(advancingBy:) runs the timer, the work and its delivery")
  func throttledAsyncWork() async throws {
    let scheduler = TestScheduler()
    let queries = Subject<String, Never>()
    let results = Locked<[[String]]>([])
    queries.throttle(.milliseconds(300), on: scheduler)
      .flattenMap { query in Signal.async { await slowly(Catalog().names.filter { $0.hasPrefix(query) }) } }
      .deliver(on: scheduler)
      .subscribeNext { results.append($0) }
    queries.sendNext("s")
    try await scheduler.settle(advancingBy: .milliseconds(100))
    queries.sendNext("swift")
    try await scheduler.settle(advancingBy: .milliseconds(299))
    #expect(results.value == [])
    try await scheduler.settle(advancingBy: .milliseconds(1))
    #expect(results.value == [["swift", "swiftui"]])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 0.4))
    #expect(scheduler.pendingAsyncWork == 0)
  }

  // MARK: How settling works

  @Test("async work takes no virtual time: its result is in before the next block runs")
  func asyncWorkTakesNoVirtualTime() async throws {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule(afterDelay: .milliseconds(100)) {
      Signal<String, Never>.async { await slowly("result of the work started at 100 ms") }
        .deliver(on: scheduler)
        .subscribeNext { log.append($0) }
    }
    scheduler.schedule(afterDelay: .milliseconds(200)) { log.append("block at 200 ms") }
    try await scheduler.settle(advancingBy: .milliseconds(300))
    #expect(log.value == ["result of the work started at 100 ms", "block at 200 ms"])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 0.3))
  }

  @Test("async work started by tracked async work is tracked too")
  func nestedWork() async throws {
    let scheduler = TestScheduler()
    let log = Locked<[Int]>([])
    scheduler.schedule {
      Signal<Int, Never>.async { () async -> Int in
        Signal<Int, Never>.async { await slowly(42) }.subscribeNext { log.append($0) }
        return 1
      }.subscribeNext { log.append($0) }
    }
    try await scheduler.settle()
    #expect(log.value.sorted() == [1, 42])
    #expect(scheduler.pendingAsyncWork == 0)
  }

  @Test("work waiting in an awaiting call is idle: settle() returns, and pendingAsyncWork counts it")
  func workWaitingForTheTest() async throws {
    let scheduler = TestScheduler()
    let release = Subject<Void, Never>()
    let command = Command<Void, String, Never>(scheduler: scheduler) { _ in
      _ = await release.first()
      return "released"
    }
    let recorder = CommandRecorder(command)
    _ = command.execute()
    try await scheduler.settle()
    #expect(recorder.executing.value == [false, true])
    #expect(scheduler.pendingAsyncWork == 1)
    release.sendNext(())  // the work is subscribed: settle() returned only once it waited in first()
    try await scheduler.settle()
    #expect(recorder.executing.value == [false, true, false])
    #expect(recorder.outputs.value == ["released"])
    #expect(scheduler.pendingAsyncWork == 0)
  }

  @Test("work waiting for a block of the test scheduler in an awaiting call gets it when the clock reaches it")
  func workWaitingForTheScheduler() async throws {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule {
      Signal<String, Never>.async {
        await Signal<String, Never>.return("one second later").delay(.seconds(1), on: scheduler).first() ?? "none"
      }.subscribeNext { log.append($0) }
    }
    try await scheduler.settle()  // the clock stays: the work keeps waiting, and settle() returns
    #expect(log.value.isEmpty)
    #expect(scheduler.pendingAsyncWork == 1)
    try await scheduler.settle(advancingBy: .seconds(1))
    #expect(log.value == ["one second later"])
    #expect(scheduler.pendingAsyncWork == 0)
  }

  @Test("the blocks run in the caller's isolation: on the main actor for a main-actor test")
  func blocksRunInTheCallersIsolation() async throws {
    let scheduler = TestScheduler()
    let onMainQueue = Locked<[Bool]>([])
    scheduler.schedule { onMainQueue.append(CurrentScheduler.isOnMainQueue) }
    scheduler.schedule(afterDelay: .seconds(1)) { onMainQueue.append(CurrentScheduler.isOnMainQueue) }
    try await scheduler.settle(advancingBy: .seconds(1))
    #expect(onMainQueue.value == [true, true])
  }

  @Test("work that hops to the main actor runs while a main-actor test awaits settle()")
  func mainActorWork() async throws {
    let scheduler = TestScheduler()
    let log = Locked<[Bool]>([])
    scheduler.schedule {
      Signal<Bool, Never>.async { @MainActor in CurrentScheduler.isOnMainQueue }.subscribeNext { log.append($0) }
    }
    try await scheduler.settle()
    #expect(log.value == [true])
  }

  // MARK: What is tracked

  @Test("only work subscribed from a block of the test scheduler, or from tracked work, is tracked")
  func whatIsTracked() async throws {
    let scheduler = TestScheduler()
    let gate = Gate()
    let direct = Signal<Void, Never>.async { await gate.wait() }.subscribeNext { _ in }
    #expect(scheduler.pendingAsyncWork == 0)  // subscribed by the test itself
    scheduler.schedule { Signal<Void, Never>.async { await gate.wait() }.subscribeNext { _ in } }
    scheduler.advance()
    #expect(scheduler.pendingAsyncWork == 1)  // subscribed from a block
    gate.open()
    try await scheduler.settle()
    #expect(scheduler.pendingAsyncWork == 0)
    direct.dispose()
  }

  @Test("the iteration of an async sequence is not tracked: a source need not end")
  func asyncSequencesAreNotTracked() async throws {
    let scheduler = TestScheduler()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let received = Countdown(1)
    let subscription = Locked<(any Disposable)?>(nil)
    scheduler.schedule { subscription.value = stream.signal.subscribeNext { _ in received.arrive() } }
    try await scheduler.settle()  // would wait for the stream's end, were it tracked
    #expect(scheduler.pendingAsyncWork == 0)
    continuation.yield(1)
    await received.wait()
    subscription.value?.dispose()
    continuation.finish()
  }

  @Test("Signal.observing is not tracked either: it iterates an async sequence")
  func observationsAreNotTracked() async throws {
    let scheduler = TestScheduler()
    let person = Person()
    let names = Locked<[String]>([])
    let first = Countdown(1)
    let subscription = Locked<(any Disposable)?>(nil)
    let signal = Signal.observing(person, \.first)
    scheduler.schedule {
      subscription.value = signal.subscribeNext {
        names.append($0)
        first.arrive()
      }
    }
    try await scheduler.settle()  // would wait for the observation's end, were it tracked
    #expect(scheduler.pendingAsyncWork == 0)
    await first.wait()
    #expect(names.value == ["Ada"])
    subscription.value?.dispose()
  }

  // MARK: Limits, reported rather than hanging

  @Test("work that waits for the test scheduler through a continuation is reported as no progress, not a hang")
  func waitingForTheSchedulerUnseen() async throws {
    let scheduler = TestScheduler()
    scheduler.schedule {
      Signal<Void, Never>.async {
        await withCheckedContinuation { continuation in
          scheduler.schedule(afterDelay: .seconds(1)) { continuation.resume() }
        }
      }.subscribeNext { _ in }
    }
    do throws(TestScheduler.SettleError) {
      try await scheduler.settle(advancingBy: .seconds(2), timeout: .milliseconds(100))
      Issue.record("settle should have reported the work that made no progress")
    } catch {
      #expect(error.reason == .noProgress(.milliseconds(100)))
      #expect(error.running == 1)
      #expect(error.waiting == 0)
      #expect(error.scheduledCount == 1)  // the block the work waits for, which settle did not run
      #expect(error.description.contains("no progress"))
    }
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 0))  // where the last block ran
    scheduler.advance(by: .seconds(1))  // the block the work waits for
    try await scheduler.settle()
    #expect(scheduler.pendingAsyncWork == 0)
  }

  @Test("work in a for await loop over a signal looks busy: reported as no progress")
  func forAwaitLooksBusy() async throws {
    let scheduler = TestScheduler()
    let messages = ReplaySubject<String, Never>()
    let received = Locked<[String]>([])
    scheduler.schedule {
      Signal<Void, Never>.async {
        for await message in messages.values {
          received.append(message)
          break
        }
      }.subscribeNext { _ in }
    }
    await #expect(throws: TestScheduler.SettleError.self) {
      try await scheduler.settle(timeout: .milliseconds(100))
    }
    messages.sendNext("hello")
    try await scheduler.settle()
    #expect(received.value == ["hello"])
  }

  @Test("the timeout counts time without progress, not in all: work that keeps ending settles however long it takes")
  func timeoutRestartsWithProgress() async throws {
    // Real time is what this test is about: four tasks end 400 ms apart, 1.6 s in all, under a 1 s timeout (a
    // margin of 600 ms for a wake-up on a loaded machine).
    let scheduler = TestScheduler()
    let ended = Locked(0)
    scheduler.schedule {
      for step in 1...4 {
        Signal<Void, Never>.async {
          try? await Task.sleep(for: .milliseconds(400 * step))
          ended.increment()
        }.subscribeNext { _ in }
      }
    }
    try await scheduler.settle(timeout: .seconds(1))
    #expect(ended.value == 4)
  }

  @Test("a child task's wait does not make the work idle: it may run beside a sibling")
  func childTaskWaits() async throws {
    let scheduler = TestScheduler()
    let release = ReplaySubject<Void, Never>()
    scheduler.schedule {
      Signal<Void, Never>.async {
        async let child: Void? = release.first()
        _ = await child
      }.subscribeNext { _ in }
    }
    await #expect(throws: TestScheduler.SettleError.self) {
      try await scheduler.settle(timeout: .milliseconds(100))
    }
    release.sendNext(())
    try await scheduler.settle()
    #expect(scheduler.pendingAsyncWork == 0)
  }

  @Test("a cancelled settle throws SettleError with the reason .cancelled")
  func cancelledSettle() async throws {
    let scheduler = TestScheduler()
    let gate = Gate()
    scheduler.schedule { Signal<Void, Never>.async { await gate.wait() }.subscribeNext { _ in } }
    scheduler.advance()
    let settling = Task { () -> TestScheduler.SettleError? in
      do throws(TestScheduler.SettleError) {
        try await scheduler.settle()
        return nil
      } catch {
        return error
      }
    }
    settling.cancel()
    #expect(await settling.value?.reason == .cancelled)
    gate.open()
    try await scheduler.settle()
    #expect(scheduler.pendingAsyncWork == 0)
  }

  // MARK: The idle state of a wait

  @Test("a tracked wait that ends before it is recorded as begun leaves the work running")
  func waitEndedBeforeItBegan() async throws {
    let scheduler = TestScheduler()
    let observed = Locked<(began: Bool?, quietAfter: Bool?)>((nil, nil))
    let done = Gate()
    scheduler.schedule {
      Signal<Void, Never>.async {
        let wait = TrackedAsyncWait.ofCurrentTask()
        observed.withLock { $0.began = wait != nil }
        wait?.end()  // the event came first
        wait?.begin()  // then the task records its suspension: it must not count
        observed.withLock { $0.quietAfter = scheduler.asyncWork.withLock { $0.isQuiet } }
        done.open()
      }.subscribeNext { _ in }
    }
    scheduler.advance()
    await done.wait()
    #expect(observed.value.began == true)
    #expect(observed.value.quietAfter == false)
    try await scheduler.settle()
    #expect(scheduler.pendingAsyncWork == 0)
  }
}
