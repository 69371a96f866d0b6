import Foundation
import Testing

@testable import AsyncSignals

@Suite("TestScheduler")
struct TestSchedulerTests {
  @Test("work runs in time order; at one instant plain work runs first (RAC's rule), then in scheduling order")
  func ordering() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule(afterDelay: .seconds(2)) { log.append("at 2") }
    scheduler.schedule(after: scheduler.now) { log.append("dated now") }
    scheduler.schedule(afterDelay: .zero) { log.append("delayed by zero") }
    scheduler.schedule { log.append("plain") }
    scheduler.schedule { log.append("plain again") }
    scheduler.schedule(afterDelay: .seconds(1)) { log.append("at 1") }
    #expect(log.value.isEmpty)
    scheduler.advance()
    #expect(log.value == ["plain", "plain again", "dated now", "delayed by zero"])
    scheduler.advance(by: .seconds(2))
    #expect(log.value == ["plain", "plain again", "dated now", "delayed by zero", "at 1", "at 2"])
  }

  @Test("step() runs exactly the next scheduled block (RAC's -step)")
  func step() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule { log.append("first") }
    scheduler.schedule { log.append("second") }
    scheduler.step()
    #expect(log.value == ["first"])
    scheduler.step()
    #expect(log.value == ["first", "second"])
    scheduler.step()  // nothing left: does nothing
    #expect(log.value == ["first", "second"])
  }

  @Test("step(_:) runs the next n blocks, dated ones included, moving the clock to each (RAC's -step:)")
  func stepCount() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule(afterDelay: .seconds(1)) { log.append("at 1 s, \(scheduler.now.timeIntervalSinceReferenceDate)") }
    scheduler.schedule(afterDelay: .milliseconds(500)) { log.append("at 0.5 s") }
    scheduler.schedule { log.append("plain") }
    scheduler.step(2)
    #expect(log.value == ["plain", "at 0.5 s"])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 0.5))
    scheduler.step(0)
    #expect(log.value.count == 2)
    scheduler.step(5)  // more than scheduled: runs what there is
    #expect(log.value == ["plain", "at 0.5 s", "at 1 s, 1.0"])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("step() counts one block: work it schedules for the same instant waits for the next step")
  func stepDoesNotDrainTheInstant() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule {
      log.append("outer")
      scheduler.schedule { log.append("inner") }
    }
    scheduler.step()
    #expect(log.value == ["outer"])
    #expect(scheduler.scheduledCount == 1)
    scheduler.step()
    #expect(log.value == ["outer", "inner"])
  }

  @Test("a repeating block counts one step per run")
  func stepRepeating() {
    let scheduler = TestScheduler()
    let ticks = Locked(0)
    let repetition = scheduler.schedule(after: scheduler.now, repeatingEvery: .seconds(1), leeway: .zero) {
      ticks.increment()
    }
    scheduler.step(3)
    #expect(ticks.value == 3)
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 2))
    repetition?.dispose()
  }

  @Test("stepping from inside a scheduled block stops with a message naming the method")
  func reentrantStep() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = TestScheduler()
      scheduler.schedule { scheduler.step() }
      scheduler.step()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("TestScheduler.step: a scheduled block cannot advance the scheduler that is running it"))
  }

  @Test("a negative step count stops with a message naming the argument (guarantee 9)")
  func negativeStep() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      TestScheduler().step(-1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("TestScheduler.step(_:): count must not be negative"))
  }

  @Test("advancing by 1 ms a thousand times lands exactly on one second")
  func exactVirtualTime() {
    let scheduler = TestScheduler()
    let fired = Locked(false)
    scheduler.schedule(afterDelay: .seconds(1)) { fired.value = true }
    for _ in 0..<999 { scheduler.advance(by: .milliseconds(1)) }
    #expect(!fired.value)
    scheduler.advance(by: .milliseconds(1))
    #expect(fired.value)
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 1))
  }

  @Test("the clock reads each block's time while it runs, then the target")
  func clockDuringWork() {
    let scheduler = TestScheduler()
    let seen = Locked<[Date]>([])
    scheduler.schedule(afterDelay: .seconds(3)) { seen.append(scheduler.now) }
    scheduler.advance(by: .seconds(10))
    #expect(seen.value == [Date(timeIntervalSinceReferenceDate: 3)])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 10))
  }

  @Test("advance(to:) and run() run what falls due, including work scheduled while running")
  func advanceToAndRun() {
    let scheduler = TestScheduler(startDate: Date(timeIntervalSinceReferenceDate: 100))
    let log = Locked<[Int]>([])
    scheduler.schedule(afterDelay: .seconds(1)) {
      log.append(1)
      scheduler.schedule(afterDelay: .seconds(1)) { log.append(2) }
    }
    scheduler.advance(to: Date(timeIntervalSinceReferenceDate: 101))
    #expect(log.value == [1])
    scheduler.run()
    #expect(log.value == [1, 2])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 102))
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("repeating work runs at exact virtual times until disposed")
  func repeating() {
    let scheduler = TestScheduler()
    let times = Locked<[TimeInterval]>([])
    let repetition = scheduler.schedule(
      after: scheduler.now.addingTimeInterval(1), repeatingEvery: .milliseconds(500), leeway: .zero
    ) { times.append(scheduler.now.timeIntervalSinceReferenceDate) }
    scheduler.advance(by: .seconds(2))
    #expect(times.value == [1, 1.5, 2])
    repetition?.dispose()
    scheduler.advance(by: .seconds(2))
    #expect(times.value == [1, 1.5, 2])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("disposing scheduled work removes it and releases what it captured (guarantee 8)")
  func disposalRemoves() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    var tracked: Tracked? = tracker.make()
    let work = scheduler.schedule(afterDelay: .seconds(10)) { [tracked] in _ = tracked }
    tracked = nil
    #expect(scheduler.scheduledCount == 1)
    work?.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("while running a block, the test scheduler is the current scheduler")
  func currentWhileRunning() {
    let scheduler = TestScheduler()
    let current = Locked<(any Scheduler)?>(nil)
    scheduler.schedule { current.value = Schedulers.current }
    scheduler.advance()
    #expect(current.value === scheduler)
  }

  @Test("work scheduled from many threads all runs")
  func concurrentScheduling() {
    let scheduler = TestScheduler()
    let count = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for step in 0..<100 { scheduler.schedule(afterDelay: .milliseconds(step + thread)) { count.increment() } }
    }
    scheduler.run()
    #expect(count.value == 800)
  }

  @Test("advancing from inside a scheduled block stops with a message naming the method")
  func reentrantAdvance() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = TestScheduler()
      scheduler.schedule { scheduler.advance() }
      scheduler.advance()
    }
  }

  @Test("a negative advance stops with a message naming the argument (guarantee 9)")
  func negativeAdvance() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      TestScheduler().advance(by: .seconds(-1))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("TestScheduler.advance(by:): interval must not be negative"))
  }

  // MARK: settle, without async work (its async work is tested in AsyncSignalsInteropTests/SettleTests)

  @Test("settle() with no async work runs what is due now, as advance() does, and leaves the clock")
  func settleRunsWhatIsDue() async throws {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule {
      log.append("now")
      scheduler.schedule { log.append("scheduled by now, for now") }
    }
    scheduler.schedule(afterDelay: .seconds(1)) { log.append("at 1") }
    try await scheduler.settle()
    #expect(log.value == ["now", "scheduled by now, for now"])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 0))
    #expect(scheduler.scheduledCount == 1)
    #expect(scheduler.pendingAsyncWork == 0)
  }

  @Test("settle(advancingBy:) with no async work moves the clock as advance(by:) does, each block at its time")
  func settleAdvancing() async throws {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule(afterDelay: .seconds(2)) { log.append("at 2: \(scheduler.now.timeIntervalSinceReferenceDate)") }
    scheduler.schedule(afterDelay: .seconds(1)) {
      log.append("at 1: \(scheduler.now.timeIntervalSinceReferenceDate)")
      scheduler.schedule(afterDelay: .milliseconds(500)) { log.append("at 1.5") }
    }
    scheduler.schedule(afterDelay: .seconds(4)) { log.append("at 4") }
    try await scheduler.settle(advancingBy: .seconds(3))
    #expect(log.value == ["at 1: 1.0", "at 1.5", "at 2: 2.0"])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 3))
  }

  @Test("a negative settle(advancingBy:) stops with a message naming the argument (guarantee 9)")
  func negativeSettle() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try? await TestScheduler().settle(advancingBy: .seconds(-1))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("TestScheduler.settle(advancingBy:timeout:): interval must not be negative"))
  }

  @Test("a settle timeout that is not positive stops with a message naming the argument (guarantee 9)")
  func nonPositiveSettleTimeout() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try? await TestScheduler().settle(timeout: .zero)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("TestScheduler.settle(timeout:): timeout must be positive"))
  }
}
