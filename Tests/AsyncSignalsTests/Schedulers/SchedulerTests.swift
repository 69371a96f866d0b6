import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

@Suite("Schedulers")
struct SchedulerTests {
  @Test("the immediate scheduler runs blocks at once and does not become current")
  func immediate() {
    let log = Locked<[String]>([])
    let disposable = ImmediateScheduler.shared.schedule {
      log.append(Schedulers.current == nil ? "no current" : "current")
    }
    log.append("after")
    #expect(log.value == ["no current", "after"])
    #expect(disposable == nil)
  }

  @Test("the immediate scheduler cannot repeat work (guarantee 9)")
  func immediateRepeating() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ImmediateScheduler.shared.schedule(after: Date(), repeatingEvery: .seconds(1), leeway: .zero) {}
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("ImmediateScheduler.schedule(after:repeatingEvery:leeway:_:)"))
  }

  @Test("a queue scheduler runs blocks first in, first out, as the current scheduler, even over a concurrent target")
  func queueFIFO() {
    let target = DispatchQueue(label: "concurrent target", attributes: .concurrent)
    let scheduler = QueueScheduler(name: "fifo", targetQueue: target)
    let order = Locked<[Int]>([])
    let currentWasScheduler = Locked(true)
    let done = DispatchSemaphore(value: 0)
    for index in 0..<500 {
      scheduler.schedule {
        if Schedulers.current !== scheduler { currentWasScheduler.value = false }
        order.append(index)
        if index == 499 { done.signal() }
      }
    }
    done.wait()
    #expect(order.value == Array(0..<500))
    #expect(currentWasScheduler.value)
  }

  @Test("a queue scheduler's cancelled work does not run")
  func queueCancellation() {
    let scheduler = QueueScheduler(name: "cancel")
    let gate = DispatchSemaphore(value: 0)
    let ran = Locked(false)
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule { gate.wait() }
    let cancelled = scheduler.schedule { ran.value = true }
    scheduler.schedule { done.signal() }
    cancelled?.dispose()
    gate.signal()
    done.wait()
    #expect(!ran.value)
  }

  @Test("a queue scheduler runs dated, delayed and repeating work, and stops repeating when disposed")
  func queueTimedWork() {
    let scheduler = QueueScheduler(name: "timed")
    let dated = DispatchSemaphore(value: 0)
    let delayed = DispatchSemaphore(value: 0)
    scheduler.schedule(after: Date()) { dated.signal() }
    scheduler.schedule(afterDelay: .milliseconds(1)) { delayed.signal() }
    dated.wait()
    delayed.wait()
    let ticks = Locked(0)
    let threeTicks = DispatchSemaphore(value: 0)
    let repetition = scheduler.schedule(after: Date(), repeatingEvery: .milliseconds(1), leeway: .zero) {
      if ticks.increment() == 3 { threeTicks.signal() }
    }
    threeTicks.wait()
    repetition?.dispose()
    let afterDispose = ticks.value
    let drained = DispatchSemaphore(value: 0)
    scheduler.schedule(afterDelay: .milliseconds(20)) { drained.signal() }
    drained.wait()
    // At most the tick already in flight when disposing runs afterwards.
    #expect(ticks.value <= afterDispose + 1)
  }

  /// Dates at or before 1970 (`Date.distantPast` among them), and a date just past.
  static let pastDates: [Date] = [
    .distantPast, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 1),
    Date().addingTimeInterval(-60),
  ]

  @Test("a queue scheduler runs work dated in the past as soon as possible, 1970 and distantPast included",
    arguments: pastDates)
  func queuePastDate(date: Date) {
    let scheduler = QueueScheduler(name: "past")
    let ran = DispatchSemaphore(value: 0)
    scheduler.schedule(after: date) { ran.signal() }
    #expect(ran.wait(timeout: .now() + 10) == .success, "work dated \(date) never ran")
  }

  @Test("a queue scheduler starts repeating work dated in the past at once, and repeats it", arguments: pastDates)
  func queuePastDateRepeating(date: Date) {
    let scheduler = QueueScheduler(name: "past repeating")
    let ticks = Locked(0)
    let twoTicks = DispatchSemaphore(value: 0)
    let repetition = scheduler.schedule(after: date, repeatingEvery: .milliseconds(1), leeway: .zero) {
      if ticks.increment() == 2 { twoTicks.signal() }
    }
    #expect(twoTicks.wait(timeout: .now() + 10) == .success, "repeating work dated \(date) never ran twice")
    repetition?.dispose()
  }

  @Test("the main scheduler and the subscription scheduler run work dated distantPast as soon as possible")
  func mainAndSubscriptionPastDate() {
    let ranOnMain = DispatchSemaphore(value: 0)
    let ranInBackground = DispatchSemaphore(value: 0)
    QueueScheduler.main.schedule(after: .distantPast) { ranOnMain.signal() }
    SubscriptionScheduler.shared.schedule(after: .distantPast) { ranInBackground.signal() }
    #expect(ranInBackground.wait(timeout: .now() + 10) == .success)
    #expect(ranOnMain.wait(timeout: .now() + 10) == .success)
  }

  @Test("outside any scheduler there is no current scheduler; nested schedulers restore it")
  func currentScheduler() {
    #expect(Schedulers.current == nil)
    let outer = TestScheduler()
    let inner = TestScheduler()
    outer.performAsCurrent {
      #expect(Schedulers.current === outer)
      inner.performAsCurrent { #expect(Schedulers.current === inner) }
      #expect(Schedulers.current === outer)
    }
    #expect(Schedulers.current == nil)
  }

  @Test("on the main queue the current scheduler is the main scheduler")
  @MainActor
  func mainIsCurrentOnMainQueue() {
    #expect(Schedulers.current === QueueScheduler.main)
  }

  @Test("the main scheduler always runs blocks asynchronously, on the main queue")
  @MainActor
  func mainSchedulerIsAsynchronous() async {
    let log = Locked<[String]>([])
    await withCheckedContinuation { continuation in
      QueueScheduler.main.schedule {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append("block")
        continuation.resume()
      }
      log.append("after schedule")
    }
    #expect(log.value == ["after schedule", "block"])
  }

  @Test("the subscription scheduler runs at once when a scheduler is current")
  func subscriptionSchedulerSynchronous() {
    let ran = Locked(false)
    TestScheduler().performAsCurrent {
      #expect(SubscriptionScheduler.shared.schedule { ran.value = true } == nil)
    }
    #expect(ran.value)
  }

  @Test("without a current scheduler the subscription scheduler runs on a background scheduler, which is current")
  func subscriptionSchedulerBackground() {
    let done = DispatchSemaphore(value: 0)
    let current = Locked<(any Scheduler)?>(nil)
    #expect(Schedulers.current == nil)
    SubscriptionScheduler.shared.schedule {
      current.value = Schedulers.current
      done.signal()
    }
    done.wait()
    #expect(current.value != nil)
  }

  @Test("the leading-dot names reach the shared schedulers")
  func staticMembers() {
    func identity(_ scheduler: any Scheduler) -> any Scheduler { scheduler }
    #expect(identity(.immediate) === ImmediateScheduler.shared)
    #expect(identity(.main) === QueueScheduler.main)
    #expect(identity(.subscription) === SubscriptionScheduler.shared)
  }
}

@Suite("Recursive scheduling")
struct RecursiveSchedulingTests {
  /// Counts to `target` by rescheduling; on a synchronous scheduler this would overflow the stack if the
  /// recursion were not flattened (guarantee 7).
  private func count(to target: Int, on scheduler: any Scheduler) -> Locked<Int> {
    let count = Locked(0)
    scheduler.scheduleRecursive { reschedule in
      if count.increment() < target { reschedule() }
    }
    return count
  }

  @Test("100 000 reschedules on the immediate scheduler run in constant stack depth (guarantee 7)")
  func immediate() {
    #expect(count(to: 100_000, on: ImmediateScheduler.shared).value == 100_000)
  }

  @Test("100 000 reschedules on the subscription scheduler, with a scheduler current, run in constant stack depth")
  func subscription() {
    TestScheduler().performAsCurrent {
      #expect(count(to: 100_000, on: SubscriptionScheduler.shared).value == 100_000)
    }
  }

  @Test("on an asynchronous scheduler each reschedule is a new scheduled block")
  func asynchronous() {
    let scheduler = TestScheduler()
    let counter = count(to: 5, on: scheduler)
    #expect(counter.value == 0)
    scheduler.advance()
    #expect(counter.value == 5)
  }

  @Test("a reschedule requested during the block runs after the block returns")
  func flattenedOrder() {
    let log = Locked<[String]>([])
    let runs = Locked(0)
    ImmediateScheduler.shared.scheduleRecursive { reschedule in
      let run = runs.increment()
      log.append("start \(run)")
      if run < 3 { reschedule() }
      log.append("end \(run)")
    }
    #expect(log.value == ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
  }

  @Test("disposing stops the recursion")
  func disposal() {
    let scheduler = TestScheduler()
    let count = Locked(0)
    let recursion = Locked<(any Disposable)?>(nil)
    recursion.value = scheduler.scheduleRecursive { reschedule in
      if count.increment() == 3 { recursion.value?.dispose() }
      reschedule()
    }
    scheduler.advance()
    #expect(count.value == 3)
    #expect(scheduler.scheduledCount == 0)
  }
}

/// An actor whose executor is a queue scheduler.
actor ScheduledCounter {
  nonisolated let scheduler: QueueScheduler
  private var values: [Int] = []

  init(scheduler: QueueScheduler) {
    self.scheduler = scheduler
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    scheduler.asUnownedSerialExecutor()
  }

  /// Returns whether the isolated code ran on the scheduler's queue, as the current scheduler.
  func record(_ value: Int) -> Bool {
    values.append(value)
    dispatchPrecondition(condition: .onQueue(scheduler.queue))
    return Schedulers.current === scheduler
  }

  func recorded() -> [Int] { values }
}

@Suite("QueueScheduler as an executor")
struct QueueExecutorTests {
  @Test("an actor whose executor is a queue scheduler runs its isolated code on that queue")
  func actorRunsOnQueue() async {
    let counter = ScheduledCounter(scheduler: QueueScheduler(name: "actor queue"))
    for value in 0..<10 {
      #expect(await counter.record(value))
    }
    #expect(await counter.recorded() == Array(0..<10))
  }

  @Test("assumeIsolated works on the scheduler's queue (checkIsolated)")
  func assumeIsolated() {
    let scheduler = QueueScheduler(name: "isolation")
    let counter = ScheduledCounter(scheduler: scheduler)
    let done = DispatchSemaphore(value: 0)
    let sawScheduler = Locked(false)
    scheduler.schedule {
      counter.assumeIsolated { counter in sawScheduler.value = counter.record(1) }
      done.signal()
    }
    done.wait()
    #expect(sawScheduler.value)
  }
}
