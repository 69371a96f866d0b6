import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("Signal.interval(_:on:leeway:)")
struct IntervalTests {
  @Test("sends the scheduler's current date every interval, the first one interval after subscribing")
  func sendsDates() {
    let scheduler = TestScheduler()
    scheduler.advance(by: .seconds(10))
    let recorder = EventRecorder(Signal.interval(.milliseconds(250), on: scheduler))
    scheduler.advance(by: .milliseconds(249))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    scheduler.advance(by: .milliseconds(500))
    #expect(recorder.values.map(\.timeIntervalSinceReferenceDate) == [10.25, 10.5, 10.75])
  }

  @Test("each date is sent on the scheduler")
  func onScheduler() {
    let scheduler = TestScheduler()
    let current = Locked<[Bool]>([])
    Signal.interval(.seconds(1), on: scheduler).subscribeNext { _ in current.append(Schedulers.current === scheduler) }
    scheduler.advance(by: .seconds(2))
    #expect(current.value == [true, true])
  }

  @Test("never completes (RAC)")
  func neverCompletes() {
    let scheduler = TestScheduler()
    let recorder = EventRecorder(Signal.interval(.seconds(1), on: scheduler, leeway: .milliseconds(100)))
    scheduler.advance(by: .seconds(1_000))
    #expect(recorder.values.count == 1_000)
    #expect(!recorder.isTerminated)
  }

  @Test("each subscription has its own timer (cold)")
  func cold() {
    let scheduler = TestScheduler()
    let ticks = Signal.interval(.seconds(1), on: scheduler)
    let first = EventRecorder(ticks)
    scheduler.advance(by: .milliseconds(500))
    let second = EventRecorder(ticks)
    scheduler.advance(by: .seconds(1))
    #expect(first.values.map(\.timeIntervalSinceReferenceDate) == [1])
    #expect(second.values.map(\.timeIntervalSinceReferenceDate) == [1.5])
  }

  @Test("disposing stops the timer and releases the subscription's closures (guarantee 8)")
  func disposal() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    let disposable: any Disposable = {
      let tracked = tracker.make()
      return Signal.interval(.seconds(1), on: scheduler).subscribeNext { _ in _ = tracked }
    }()
    scheduler.advance(by: .seconds(3))
    #expect(scheduler.scheduledCount == 1)
    disposable.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("a downstream that finishes stops the timer")
  func downstreamFinishes() {
    let scheduler = TestScheduler()
    // zip completes once the one-value side has completed and its value has been paired.
    let recorder = EventRecorder(Signal.interval(.seconds(1), on: scheduler).zip(with: .return(0)))
    scheduler.advance(by: .seconds(1))
    #expect(recorder.isCompleted)
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("a non-positive interval stops with a message naming the operator and argument")
  func zeroInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal.interval(.zero, on: TestScheduler())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("interval(_:on:leeway:): interval must be positive"))
  }

  @Test("a negative leeway stops with a message naming the operator and argument")
  func negativeLeeway() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal.interval(.seconds(1), on: TestScheduler(), leeway: .seconds(-1))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("interval(_:on:leeway:): leeway must not be negative"))
  }

  @Test("the immediate scheduler stops with a message naming the operator and argument (RAC asserts it too)")
  func immediateScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal.interval(.seconds(1), on: .immediate)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("interval(_:on:leeway:): scheduler must not be the immediate scheduler"))
  }
}
