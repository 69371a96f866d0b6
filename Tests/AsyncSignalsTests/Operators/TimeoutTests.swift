import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("timeout(_:on:raising:) and timeout(_:on:)")
struct TimeoutTests {
  @Test("fails when the source has not terminated within the interval, passing events through until then (RAC)")
  func timesOut() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.timeout(.seconds(1), on: scheduler, raising: TestError(code: 408)))
    subject.sendNext(1)
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values == [1] && !recorder.isTerminated)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.events == [.next(1), .error(TestError(code: 408))])
  }

  @Test("the failure is sent on the scheduler, and the source is disposed")
  func timeoutDisposesSource() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let onScheduler = Locked<Bool?>(nil)
    subject.timeout(.seconds(1), on: scheduler, raising: TestError()).subscribeError { _ in
      onScheduler.value = Schedulers.current === scheduler
    }
    #expect(subject.subscriberCount == 1)
    scheduler.advance(by: .seconds(1))
    #expect(onScheduler.value == true)
    #expect(subject.subscriberCount == 0)
  }

  @Test("completion within the interval is forwarded and cancels the timer")
  func completesInTime() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.timeout(.seconds(1), on: scheduler, raising: TestError()))
    scheduler.advance(by: .milliseconds(500))
    subject.sendNext(1)
    subject.sendCompleted()
    #expect(recorder.events == [.next(1), .completed])
    #expect(scheduler.scheduledCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test("an error within the interval is forwarded and cancels the timer")
  func failsInTime() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.timeout(.seconds(1), on: scheduler, raising: TestError(code: 408)))
    subject.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("the timer starts at subscription, before the source is subscribed (RAC)")
  func timerFirst() {
    let scheduler = TestScheduler()
    let timersWhenSubscribed = Locked<Int?>(nil)
    let source = Signal<Int, TestError>.create { subscriber in
      timersWhenSubscribed.value = scheduler.scheduledCount
      subscriber.sendCompleted()
      return nil
    }
    let recorder = EventRecorder(source.timeout(.seconds(1), on: scheduler, raising: TestError()))
    #expect(timersWhenSubscribed.value == 1)
    #expect(recorder.events == [.completed])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("the failure is made only when the time is up, once per subscription")
  func failureMadeLazily() {
    let scheduler = TestScheduler()
    let made = Locked(0)
    @Sendable func timedOut() -> TestError {
      made.increment()
      return TestError(code: 408)
    }
    let completing = Subject<Int, TestError>()
    let silent = Subject<Int, TestError>()
    _ = EventRecorder(completing.timeout(.seconds(1), on: scheduler, raising: timedOut()))
    let recorder = EventRecorder(silent.timeout(.seconds(1), on: scheduler, raising: timedOut()))
    completing.sendCompleted()
    #expect(made.value == 0)
    scheduler.advance(by: .seconds(5))
    #expect(made.value == 1)
    #expect(recorder.errors == [TestError(code: 408)])
  }

  @Test("a signal that cannot fail times out with TimeoutError (RAC's RACSignalErrorTimedOut)")
  func neverFailing() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.timeout(.seconds(1), on: scheduler))
    subject.sendNext(1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events == [.next(1), .error(TimeoutError())])
    #expect(subject.subscriberCount == 0)

    let completing = Subject<Int, Never>()
    let completed = EventRecorder(completing.timeout(.seconds(1), on: scheduler))
    completing.sendCompleted()
    #expect(completed.events == [.completed])
  }

  @Test("a signal failing with any Error times out with TimeoutError, and forwards its own errors")
  func anyError() {
    let scheduler = TestScheduler()
    let silent = Subject<Int, any Error>()
    let timedOut = EventRecorder(silent.timeout(.seconds(1), on: scheduler))
    let failing = Subject<Int, any Error>()
    let failed = EventRecorder(failing.timeout(.seconds(1), on: scheduler))
    failing.sendError(TestError(code: 5))
    scheduler.advance(by: .seconds(1))
    #expect(timedOut.errors.first is TimeoutError)
    #expect(failed.errors.first as? TestError == TestError(code: 5))
  }

  @Test("disposing cancels the timer and disposes the source")
  func disposal() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.timeout(.seconds(1), on: scheduler, raising: TestError()))
    #expect(scheduler.scheduledCount == 1)
    recorder.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events.isEmpty)
  }

  @Test("the subscription's closures are released once it terminates and once it is disposed (guarantee 8)")
  func releasesClosures() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    let timingOut = Subject<Int, TestError>()
    let disposed = Subject<Int, TestError>()
    let disposables: [any Disposable] = {
      let tracked = tracker.make()
      let error: @Sendable () -> TestError = {
        _ = tracked
        return TestError()
      }
      return [
        timingOut.timeout(.seconds(1), on: scheduler, raising: error()).subscribeError { _ in _ = tracked },
        disposed.timeout(.seconds(2), on: scheduler, raising: error()).subscribeError { _ in _ = tracked },
      ]
    }()
    scheduler.advance(by: .seconds(1))
    #expect(tracker.liveCount == 1)
    disposables[1].dispose()
    #expect(tracker.liveCount == 0)
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("the immediate scheduler stops with a message naming the operator and argument (RAC asserts it too)")
  func immediateScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, TestError>().timeout(.seconds(1), on: .immediate, raising: TestError())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("timeout(_:on:raising:): scheduler must not be the immediate scheduler"))
  }

  @Test("a negative interval stops with a message naming the operator and argument")
  func negativeInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().timeout(.seconds(-1), on: TestScheduler())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("timeout(_:on:): interval must not be negative"))
  }
}
