import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("throttleLatest(_:on:) and throttleFirst(_:on:): the first value at once, then at most one per interval")
struct RateLimitTests {
  // MARK: throttleLatest

  @Test("throttleLatest: the first value at once, the latest of each interval at its end, a quiet interval resets")
  func latestMarbles() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("abc-----d-e|")
    // a at once; b and c within a's 3 s: c at 3; nothing in c's interval: d at once at 8; e kept: completion waits.
    #expect(scheduler.diagram(of: source.throttleLatest(.seconds(3), on: scheduler)) == "a--c----d--(e|)")
    #expect(scheduler.scheduledCount == 0)
    #expect(source.subscriberCount == 0)
  }

  @Test("throttleLatest: exact virtual times, recorded: never two values less than the interval apart")
  func latestExactTimes() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = scheduler.record(subject.throttleLatest(.milliseconds(300), on: scheduler))
    subject.sendNext(1)  // at once
    scheduler.advance(by: .milliseconds(100))
    subject.sendNext(2)
    scheduler.advance(by: .milliseconds(100))
    subject.sendNext(3)  // replaces 2
    scheduler.advance(by: .milliseconds(99))
    #expect(recorder.values == [1])  // 299 ms: not yet
    scheduler.advance(by: .milliseconds(1))
    subject.sendNext(4)  // within 3's interval
    scheduler.advance(by: .milliseconds(600))  // 4 at 600 ms; the interval after it ends at 900 ms with nothing kept
    subject.sendNext(5)  // at 900 ms: the throttling has ended, so at once
    #expect(
      recorder.events == [
        .next(.zero, 1), .next(.milliseconds(300), 3), .next(.milliseconds(600), 4), .next(.milliseconds(900), 5),
      ])
  }

  @Test("throttleLatest: the value kept is sent on the scheduler that timed it; the first on the sender's thread")
  func latestSentOnScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let onScheduler = Locked<[Bool]>([])
    subject.throttleLatest(.seconds(1), on: scheduler).subscribeNext { _ in
      onScheduler.append(Schedulers.current === scheduler)
    }
    subject.sendNext(1)
    subject.sendNext(2)
    scheduler.advance(by: .seconds(1))
    #expect(onScheduler.value == [false, true])
  }

  @Test("throttleLatest: completion with a value kept waits for the interval's end, then follows it")
  func latestCompletionWaits() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = scheduler.record(subject.throttleLatest(.seconds(2), on: scheduler))
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendCompleted()
    #expect(recorder.events == [.next(.zero, 1)])
    #expect(subject.subscriberCount == 0)  // the source has ended; only the timer is left
    scheduler.advance(by: .seconds(2))
    #expect(recorder.events == [.next(.zero, 1), .next(.seconds(2), 2), .completed(.seconds(2))])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("throttleLatest: completion with nothing kept is sent at once, even while an interval runs")
  func latestCompletionAtOnce() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = scheduler.record(subject.throttleLatest(.seconds(2), on: scheduler))
    subject.sendNext(1)
    scheduler.advance(by: .seconds(1))
    subject.sendCompleted()
    #expect(recorder.events == [.next(.zero, 1), .completed(.seconds(1))])
    #expect(scheduler.scheduledCount == 0)  // the interval's timer is cancelled
  }

  @Test("throttleLatest: a failure is sent at once and the value kept is dropped")
  func latestFailure() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("ab#")
    #expect(scheduler.diagram(of: source.throttleLatest(.seconds(5), on: scheduler)) == "a-#")
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("throttleLatest(.zero): the latest of the values sent before the scheduler's next turn")
  func latestZero() {
    let scheduler = TestScheduler()
    let subject = Subject<String, Never>()
    let recorder = scheduler.record(subject.throttleLatest(.zero, on: scheduler))
    subject.sendNext("a")
    subject.sendNext("b")
    subject.sendNext("c")
    #expect(recorder.values == ["a"])
    scheduler.advance()
    #expect(recorder.values == ["a", "c"])
    scheduler.advance()
    subject.sendNext("d")
    #expect(recorder.values == ["a", "c", "d"])
  }

  // MARK: throttleFirst

  @Test("throttleFirst: the first value of each burst at once; what arrives within the interval is dropped")
  func firstMarbles() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("abc-d---e|")
    #expect(scheduler.diagram(of: source.throttleFirst(.seconds(3), on: scheduler)) == "a---d---e|")
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("throttleFirst: at the instant the interval ends, a value is sent once the clock has reached it")
  func firstExactTimes() {
    let scheduler = TestScheduler()
    let taps = Subject<Int, Never>()
    let recorder = scheduler.record(taps.throttleFirst(.seconds(1), on: scheduler))
    taps.sendNext(1)
    scheduler.advance(by: .milliseconds(999))
    taps.sendNext(2)  // dropped: 999 ms after 1
    scheduler.advance(by: .milliseconds(1))
    taps.sendNext(3)  // exactly 1 s after 1: the interval's timer has run
    taps.sendNext(4)
    #expect(recorder.events == [.next(.zero, 1), .next(.seconds(1), 3)])
  }

  @Test("throttleFirst: a value due at the very instant the interval ends, before its timer, is dropped")
  func firstSameInstant() {
    let scheduler = TestScheduler()
    // The marbles are scheduled before the operator's timers: at 3 s, c arrives before the interval's timer runs.
    let source = scheduler.marbles("a--c-d")
    #expect(scheduler.diagram(of: source.throttleFirst(.seconds(3), on: scheduler)) == "a----d")
  }

  @Test("throttleFirst: completion and failure are sent at once")
  func firstTerminal() {
    let scheduler = TestScheduler()
    #expect(scheduler.diagram(of: scheduler.marbles("ab|").throttleFirst(.seconds(5), on: scheduler)) == "a-|")
    #expect(scheduler.diagram(of: scheduler.marbles("ab#").throttleFirst(.seconds(5), on: scheduler)) == "a-#")
    #expect(scheduler.scheduledCount == 0)
  }

  // MARK: Both

  @Test("disposing cancels the interval's timer and disposes the source", arguments: [true, false])
  func disposal(keepsLatest: Bool) {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let signal =
      keepsLatest
      ? subject.throttleLatest(.seconds(1), on: scheduler) : subject.throttleFirst(.seconds(1), on: scheduler)
    let recorder = scheduler.record(signal)
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(scheduler.scheduledCount == 1)
    recorder.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
    scheduler.advance(by: .seconds(5))
    #expect(recorder.events == [.next(.zero, 1)])
  }

  @Test("one timer at a time, however many values an interval receives", arguments: [true, false])
  func oneTimer(keepsLatest: Bool) {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let signal =
      keepsLatest
      ? subject.throttleLatest(.seconds(1), on: scheduler) : subject.throttleFirst(.seconds(1), on: scheduler)
    let recorder = scheduler.record(signal)
    for value in 0..<100 { subject.sendNext(value) }
    #expect(scheduler.scheduledCount == 1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == (keepsLatest ? [0, 99] : [0]))
  }

  @Test("without a scheduler, the intervals are timed on the scheduler current where the value arrives (RAC's rule)")
  func currentScheduler() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("abc-----d")  // sent from the test scheduler's blocks
    #expect(scheduler.diagram(of: source.throttleLatest(.seconds(3))) == "a--c----d")
    #expect(scheduler.diagram(of: scheduler.marbles("abc-d").throttleFirst(.seconds(3))) == "a---d")
  }

  @Test("without a scheduler, values arriving on the main queue are timed there, and the value kept is sent there")
  func mainQueueIsCurrent() async {
    let subject = Subject<Int, Never>()
    let received = Locked<[(value: Int, onMain: Bool)]>([])
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      subject.throttleLatest(.zero).subscribeNext { value in
        received.append((value, CurrentScheduler.isOnMainQueue))
        if value == 3 { continuation.resume() }
      }
      subject.sendNext(1)  // at once, here on the main queue
      subject.sendNext(2)
      subject.sendNext(3)  // kept: the main queue's timer sends it once this test lets go of the main actor
    }
    #expect(received.value.map(\.value) == [1, 3])
    #expect(received.value.allSatisfy { $0.onMain })
  }

  @Test("a value sent back into the source from the callback is throttled in its turn (guarantee 6)")
  func reentrantSend() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = scheduler.record(subject.throttleLatest(.seconds(1), on: scheduler))
    subject.throttleLatest(.seconds(1), on: scheduler).subscribeNext { value in
      if value < 3 { subject.sendNext(value + 1) }
    }
    subject.sendNext(1)
    #expect(recorder.values == [1])
    scheduler.advance(by: .seconds(5))
    #expect(recorder.events == [.next(.zero, 1), .next(.seconds(1), 2), .next(.seconds(2), 3)])
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
        completing.throttleLatest(.seconds(1), on: scheduler).subscribeNext { _ in _ = tracked },
        disposed.throttleFirst(.seconds(1), on: scheduler).subscribeNext { _ in _ = tracked }
      )
    }()
    completing.sendNext(1)
    completing.sendNext(2)
    disposed.sendNext(1)
    completing.sendCompleted()
    scheduler.advance(by: .seconds(1))
    #expect(tracker.liveCount == 1)
    disposable.dispose()
    #expect(tracker.liveCount == 0)
    #expect(scheduler.scheduledCount == 0)
    withExtendedLifetime((completed, disposable)) {}
  }

  @Test("timers racing with values on a real queue: values in order, none twice, the last one always sent")
  nonisolated func realQueueRace() async {
    let worker = QueueScheduler(name: "rate limit race")
    let subject = Subject<Int, Never>()
    let received = await withCheckedContinuation { continuation in
      let values = Locked<[Int]>([])
      subject.throttleLatest(.zero, on: worker).subscribeNext(
        { values.append($0) }, completed: { continuation.resume(returning: values.value) })
      DispatchQueue.global().async { @Sendable in
        for value in 0..<10_000 { subject.sendNext(value) }
        subject.sendCompleted()
      }
    }
    #expect(received.first == 0)
    #expect(received.last == 9_999)
    #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 })
  }
}
