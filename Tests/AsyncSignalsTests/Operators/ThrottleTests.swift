import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("throttle(_:on:) and throttle(_:on:valuesPassing:)")
struct ThrottleTests {
  @Test("a next is forwarded only if no newer next arrives within the interval: the latest wins (RAC)")
  func latestWins() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("ab----c--d--|")
    let output = scheduler.diagram(of: source.throttle(.seconds(2), on: scheduler))
    #expect(output == "---b----c--d|")
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("exact virtual times: a value is sent when its interval has passed, on the scheduler, not a tick earlier")
  func exactTimes() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let sentOnScheduler = Locked<[Bool]>([])
    let recorder = EventRecorder(
      subject.throttle(.milliseconds(300), on: scheduler).map { value in
        sentOnScheduler.append(Schedulers.current === scheduler)
        return value
      })
    subject.sendNext(1)
    scheduler.advance(by: .milliseconds(200))
    subject.sendNext(2)  // restarts the wait: due at 500 ms
    scheduler.advance(by: .milliseconds(299))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [2])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 0.5))
    #expect(sentOnScheduler.value == [true])
  }

  @Test("throttle(0) sends the latest of the values sent before the scheduler's next turn (RAC's own spec)")
  func zeroInterval() {
    let scheduler = TestScheduler()
    let subject = Subject<String, Never>()
    let recorder = EventRecorder(subject.throttle(.zero, on: scheduler))
    subject.sendNext("foo")
    subject.sendNext("bar")
    #expect(recorder.values.isEmpty)
    scheduler.advance()
    #expect(recorder.values == ["bar"])
    subject.sendNext("buzz")
    #expect(recorder.values == ["bar"])
    scheduler.advance()
    #expect(recorder.values == ["bar", "buzz"])
  }

  @Test("completion is forwarded at once, after the pending value, which RAC flushes")
  func completionFlushes() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-b|")
    #expect(scheduler.diagram(of: source.throttle(.seconds(5), on: scheduler)) == "---(b|)")
    #expect(scheduler.scheduledCount == 0)
    #expect(source.subscriberCount == 0)
  }

  @Test("completion with nothing pending is forwarded at once (RAC: should forward completed immediately)")
  func completionImmediate() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.throttle(.seconds(1), on: scheduler))
    subject.sendCompleted()
    #expect(recorder.events == [.completed])
  }

  @Test("errors are forwarded at once and the pending value is dropped (RAC: should forward errors immediately)")
  func errorImmediate() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-b#")
    #expect(scheduler.diagram(of: source.throttle(.seconds(5), on: scheduler)) == "---#")
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("debounce(_:on:) is throttle(_:on:) under Combine's and Rx's name: the same diagrams")
  func debounceIsThrottle() {
    let scheduler = TestScheduler()
    for (input, expected) in [("ab----c--d--|", "---b----c--d|"), ("a-b|", "---(b|)"), ("a-b#", "---#")] {
      let throttled = scheduler.diagram(of: scheduler.marbles(input).throttle(.seconds(2), on: scheduler))
      let debounced = scheduler.diagram(of: scheduler.marbles(input).debounce(.seconds(2), on: scheduler))
      #expect(throttled == expected)
      #expect(debounced == expected)
    }
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("debounce: exact virtual times, recorded")
  func debounceExactTimes() {
    let scheduler = TestScheduler()
    let typed = Subject<String, Never>()
    let searches = scheduler.record(typed.debounce(.milliseconds(300), on: scheduler))
    typed.sendNext("s")
    scheduler.advance(by: .milliseconds(100))
    typed.sendNext("sw")
    scheduler.advance(by: .milliseconds(299))
    #expect(searches.events.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(searches.events == [.next(.milliseconds(400), "sw")])
  }

  @Test("without a scheduler, values are timed on the scheduler current where they arrive (RAC's -throttle:)")
  func currentScheduler() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("ab----c--d--|")  // sent from the test scheduler's blocks
    #expect(scheduler.diagram(of: source.throttle(.seconds(2))) == "---b----c--d|")
  }

  @Test("without a scheduler, values arriving on the main queue are timed and sent on the main queue (RAC)")
  func mainQueueIsCurrent() async {
    let subject = Subject<Int, Never>()
    let (value, onMain) = await withCheckedContinuation { continuation in
      subject.throttle(.zero).subscribeNext { value in
        continuation.resume(returning: (value, CurrentScheduler.isOnMainQueue))
      }
      subject.sendNext(1)
      subject.sendNext(2)
    }
    #expect(value == 2)
    #expect(onMain)
  }

  @Test("without a scheduler and with none current, a private background scheduler times the values (RAC)")
  func privateBackgroundScheduler() async {
    let subject = Subject<Int, Never>()
    let (scheduler, value) = await withCheckedContinuation { continuation in
      subject.throttle(.zero).subscribeNext { value in
        continuation.resume(returning: ((Schedulers.current as? QueueScheduler)?.name, value))
      }
      DispatchQueue.global().async {
        #expect(Schedulers.current == nil)
        subject.sendNext(7)
      }
    }
    #expect(scheduler == "AsyncSignals.throttle")
    #expect(value == 7)
  }

  @Test("disposing cancels the pending timer and disposes the source (RAC: should cancel future nexts when disposed)")
  func disposal() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.throttle(.seconds(1), on: scheduler))
    subject.sendNext(1)
    #expect(scheduler.scheduledCount == 1)
    recorder.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
    scheduler.advance(by: .seconds(5))
    #expect(recorder.events.isEmpty)
  }

  @Test("a newer value cancels the older value's timer: one timer at a time")
  func oneTimerAtATime() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    _ = EventRecorder(subject.throttle(.seconds(1), on: scheduler))
    for value in 0..<100 { subject.sendNext(value) }
    #expect(scheduler.scheduledCount == 1)
  }

  @Test("the subscription's closures are released once it terminates and once it is disposed (guarantee 8)")
  func releasesClosures() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    let completing = Subject<Int, Never>()
    let disposed = Subject<Int, Never>()
    let (completed, disposable): (any Disposable, any Disposable) = {
      let tracked = tracker.make()
      return (
        completing.throttle(.seconds(1), on: scheduler) { _ in
          _ = tracked
          return true
        }.subscribeNext { _ in },
        disposed.throttle(.seconds(1), on: scheduler) { _ in
          _ = tracked
          return true
        }.subscribeNext { _ in }
      )
    }()
    completing.sendNext(1)
    disposed.sendNext(1)
    completing.sendCompleted()
    #expect(tracker.liveCount == 1)
    disposable.dispose()
    // Released although the caller still holds both disposables.
    #expect(tracker.liveCount == 0)
    #expect(scheduler.scheduledCount == 0)
    withExtendedLifetime((completed, disposable)) {}
  }

  @Test("a value sent back into the source from the downstream callback is throttled in its turn (guarantee 6)")
  func reentrantSend() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    subject.throttle(.seconds(1), on: scheduler).subscribeNext { value in
      received.append(value)
      if value < 3 { subject.sendNext(value + 1) }
    }
    subject.sendNext(1)
    scheduler.advance(by: .seconds(1))
    #expect(received.value == [1])
    scheduler.advance(by: .seconds(2))
    #expect(received.value == [1, 2, 3])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("timers racing with values on a real queue: values in order, none twice, and the last one always sent")
  nonisolated func realQueueRace() async {
    let worker = QueueScheduler(name: "throttle race")
    let subject = Subject<Int, Never>()
    let received = await withCheckedContinuation { continuation in
      let values = Locked<[Int]>([])
      subject.throttle(.zero, on: worker).subscribeNext(
        { values.append($0) }, completed: { continuation.resume(returning: values.value) })
      DispatchQueue.global().async { @Sendable in
        for value in 0..<10_000 { subject.sendNext(value) }
        subject.sendCompleted()
      }
    }
    #expect(received.last == 9_999)
    #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 })
  }

  // MARK: throttle(_:on:valuesPassing:)

  @Test("unthrottled values pass at once and drop the pending one (RAC: drop buffered values on an immediate value)")
  func predicateImmediate() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-B-c---|")
    let output = scheduler.diagram(of: source.throttle(.seconds(3), on: scheduler) { $0 == $0.lowercased() })
    #expect(output == "--B----c|")
  }

  @Test("throttled values: the latest wins (RAC: should drop buffered values when a throttled value arrives)")
  func predicateThrottled() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("abc----|")
    let output = scheduler.diagram(of: source.throttle(.seconds(2), on: scheduler) { $0 == $0.lowercased() })
    #expect(output == "----c--|")
  }

  @Test("a throttled value already sent is not resent upon completion (RAC)")
  func predicateNotResent() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a----|")
    let output = scheduler.diagram(of: source.throttle(.seconds(2), on: scheduler) { $0 == $0.lowercased() })
    #expect(output == "--a--|")
  }

  @Test("the predicate is called once per value, in order, with the latest value (RAC)")
  func predicateCalls() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let seen = Locked<[Int]>([])
    let recorder = EventRecorder(
      subject.throttle(.seconds(1), on: scheduler) { value in
        seen.append(value)
        return value.isMultiple(of: 2)
      })
    for value in 1...4 { subject.sendNext(value) }
    scheduler.advance(by: .seconds(1))
    #expect(seen.value == [1, 2, 3, 4])
    #expect(recorder.values == [1, 3, 4])
  }

  @Test("without a scheduler, the predicate variant also times values on the current scheduler")
  func predicateCurrentScheduler() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-B-c---|")
    #expect(scheduler.diagram(of: source.throttle(.seconds(3)) { $0 == $0.lowercased() }) == "--B----c|")
  }

  // MARK: Preconditions (guarantee 9)

  @Test("a negative interval stops with a message naming the operator and argument")
  func negativeInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().throttle(.seconds(-1), on: TestScheduler())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("throttle(_:on:): interval must not be negative"))
  }

  @Test("the immediate scheduler stops with a message naming the operator and argument")
  func immediateScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().throttle(.seconds(1), on: .immediate) { _ in true }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("throttle(_:on:valuesPassing:): scheduler must not be the immediate scheduler"))
  }
}
