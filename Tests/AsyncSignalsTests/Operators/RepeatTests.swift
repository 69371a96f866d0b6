import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("repeat and retry")
struct RepeatTests {
  /// A source whose n-th subscription (from 1) ends as `end(n)` decides, after sending `n`.
  nonisolated private func numberedSource(
    _ end: @escaping @Sendable (Int) -> Event<Int, TestError>
  ) -> (signal: Signal<Int, TestError>, subscriptions: Locked<Int>) {
    let subscriptions = Locked(0)
    let signal = Signal<Int, TestError>.create { subscriber in
      let number = subscriptions.increment()
      subscriber.sendNext(number)
      subscriber.send(end(number))
      return nil
    }
    return (signal, subscriptions)
  }

  // MARK: repeat

  @Test("-repeat resubscribes each time the signal completes")
  func repeatResubscribes() {
    let source = SyncSource<Int, TestError>([1, 2])
    let recorder = EventRecorder(source.signal.repeat().take(5))
    #expect(recorder.events == [.next(1), .next(2), .next(1), .next(2), .next(1), .completed])
    #expect(source.subscriptions.value == 3)
    #expect(source.disposals.value == 3)
  }

  @Test("-repeat: an error ends it and is forwarded")
  func repeatErrorEnds() {
    let (signal, subscriptions) = numberedSource { $0 < 3 ? .completed : .error(TestError(code: $0)) }
    #expect(EventRecorder(signal.repeat()).events == [.next(1), .next(2), .next(3), .error(TestError(code: 3))])
    #expect(subscriptions.value == 3)
  }

  @Test("-repeat resubscribes when an asynchronous subscription completes later, on the scheduler")
  func repeatAsynchronous() {
    let scheduler = TestScheduler()
    let subscriptions = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      let number = subscriptions.increment()
      return scheduler.schedule(afterDelay: .seconds(1)) {
        subscriber.sendNext(number)
        subscriber.sendCompleted()
      }
    }
    let recorder = EventRecorder(source.repeat().take(3))
    #expect(recorder.events.isEmpty)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    scheduler.advance(by: .seconds(2))
    #expect(recorder.events == [.next(1), .next(2), .next(3), .completed])
    #expect(subscriptions.value == 3)
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("disposing -repeat disposes the live subscription and stops the resubscriptions")
  func repeatDisposal() {
    let source = LoopbackSource<Int, Never>()
    let subscriptions = Locked(0)
    let disposals = Locked(0)
    let counted = Signal<Int, Never>.create { subscriber in
      subscriptions.increment()
      let inner = source.signal.subscribe(subscriber)
      return ActionDisposable {
        disposals.increment()
        inner.dispose()
      }
    }
    let recorder = EventRecorder(counted.repeat())
    source.sendNext(1)
    source.sendCompleted()
    #expect(subscriptions.value == 2)
    source.sendNext(2)
    recorder.dispose()
    #expect(disposals.value == 2)
    source.sendNext(3)
    source.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2)])
    #expect(subscriptions.value == 2)
    #expect(recorder.subscription.isDisposed)
  }

  @Test("-repeat: a downstream that stops disposes the live subscription")
  func repeatDownstreamStop() {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.repeat().take(2))
    subject.sendNext(1)
    #expect(subject.subscriberCount == 1)
    subject.sendNext(2)
    #expect(recorder.events == [.next(1), .next(2), .completed])
    #expect(subject.subscriberCount == 0)
  }

  @Test("-repeat of a synchronous signal runs 100 000 times in constant stack depth (guarantee 7)")
  nonisolated func repeatConstantStack() async {
    let count = Locked(0)
    Signal<Int, Never>.return(1).repeat().take(100_000).subscribeNext { _ in count.increment() }
    #expect(count.value == 100_000)

    // Through `create` and a subscriber, too.
    let subscriptions = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(subscriptions.increment())
      subscriber.sendCompleted()
      return nil
    }
    let last = Locked(0)
    source.repeat().take(100_000).subscribeNext { last.value = $0 }
    #expect(last.value == 100_000)
  }

  // MARK: retry

  @Test("-retry: resubscribes on error up to n times, then forwards the error")
  func retryUpTo() {
    let (signal, subscriptions) = numberedSource { .error(TestError(code: $0)) }
    let recorder = EventRecorder(signal.retry(upTo: 2))
    #expect(recorder.events == [.next(1), .next(2), .next(3), .error(TestError(code: 3))])
    #expect(subscriptions.value == 3)
  }

  @Test("retry(upTo: 0) forwards the first error (RAC's retry:0, retrying forever, is retry())")
  func retryZero() {
    let (signal, subscriptions) = numberedSource { .error(TestError(code: $0)) }
    #expect(EventRecorder(signal.retry(upTo: 0)).events == [.next(1), .error(TestError(code: 1))])
    #expect(subscriptions.value == 1)
  }

  @Test("-retry: forwards completion, and the count is not reset by values")
  func retryCompletes() {
    let (signal, subscriptions) = numberedSource { $0 < 3 ? .error(TestError(code: $0)) : .completed }
    #expect(EventRecorder(signal.retry(upTo: 5)).events == [.next(1), .next(2), .next(3), .completed])
    #expect(subscriptions.value == 3)
    let (again, _) = numberedSource { $0 < 3 ? .error(TestError(code: $0)) : .completed }
    #expect(EventRecorder(again.retry(upTo: 1)).events == [.next(1), .next(2), .error(TestError(code: 2))])
  }

  @Test("-retry retries forever until the signal completes")
  func retryForever() {
    let (signal, _) = numberedSource { $0 < 50 ? .error(TestError(code: $0)) : .completed }
    let recorder = EventRecorder(signal.retry())
    #expect(recorder.values == Array(1...50))
    #expect(recorder.isCompleted)
  }

  @Test("disposing -retry disposes the live subscription; a downstream stop does too")
  func retryDisposal() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.retry())
    #expect(subject.subscriberCount == 1)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)

    let other = Subject<Int, TestError>()
    let first = EventRecorder(other.retry(upTo: 3).take(1))
    other.sendNext(1)
    #expect(first.events == [.next(1), .completed])
    #expect(other.subscriberCount == 0)
  }

  @Test("-retry of a synchronous failing signal runs 100 000 times in constant stack depth (guarantee 7)")
  nonisolated func retryConstantStack() async {
    let (signal, subscriptions) = numberedSource { $0 < 100_000 ? .error(TestError(code: $0)) : .completed }
    let recorder = EventRecorder(signal.retry().filter { $0 == 100_000 })
    #expect(recorder.events == [.next(100_000), .completed])
    #expect(subscriptions.value == 100_000)

    let failing = Signal<Int, TestError>.error(TestError(code: 1))
    #expect(EventRecorder(failing.retry(upTo: 100_000)).events == [.error(TestError(code: 1))])
  }

  @Test("retry(upTo:) with a negative count stops with a message naming the operator and the argument")
  nonisolated func retryNegative() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, TestError>.never.retry(upTo: -1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("retry(upTo:): count must not be negative"))
  }

  // MARK: Lifetimes

  @Test("repeat and retry release their closures when the result ends or is disposed (guarantee 8)")
  func closuresReleased() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, TestError>()
    let (ended, disposed): (EventRecorder<Int, TestError>, EventRecorder<Int, TestError>) = {
      let tracked = tracker.make()
      let ended = EventRecorder(
        SyncSource<Int, TestError>([1]).signal.repeat().map { _ in
          _ = tracked
          return 1
        }.take(3)
          .doNext { _ in _ = tracked })
      let disposed = EventRecorder(subject.retry().doNext { _ in _ = tracked })
      return (ended, disposed)
    }()
    #expect(ended.isCompleted)
    #expect(tracker.liveCount == 1)
    disposed.dispose()
    #expect(tracker.liveCount == 0)
    withExtendedLifetime((ended.subscription, disposed.subscription)) {}
  }

  @Test("a repeat subscription that ends after a failure releases the downstream while its disposable is kept")
  func releasedAfterFailure() {
    let tracker = LifetimeTracker()
    let kept: any Disposable = {
      let tracked = tracker.make()
      return SyncSource<Int, TestError>([], then: .error(TestError())).signal.repeat()
        .subscribeNext({ _ in _ = tracked }, error: { _ in _ = tracked })
    }()
    #expect(tracker.liveCount == 0)
    #expect(kept.isDisposed)
  }
}

/// The pure decisions of `repeat` and `retry`, without signals.
@Suite("ResubscriptionStateMachine")
struct ResubscriptionStateMachineTests {
  @Test("a subscription that ends while it is being made leaves the resubscription to the running loop")
  func synchronousEndDefersToLoop() {
    var machine = ResubscriptionStateMachine(policy: .repeatAfterCompletion)
    let starts = machine.willAttach()
    let endedDuringAttach = machine.sourceTerminated(failed: false).0
    let afterFirstAttach = machine.didAttach(ActionDisposable())
    let startsAgain = machine.willAttach()
    let afterSecondAttach = machine.didAttach(ActionDisposable())
    // Later, on its own: no loop is running, so the caller starts one.
    let endedLater = machine.sourceTerminated(failed: false).0
    #expect(starts && startsAgain)
    #expect(endedDuringAttach == .none)
    #expect(afterFirstAttach == .subscribeAgain)
    #expect(afterSecondAttach == .keep)
    #expect(endedLater == .subscribeAgain)
  }

  @Test("a failure ends repeat; completion ends retry; retries are counted")
  func policies() {
    var repeating = ResubscriptionStateMachine(policy: .repeatAfterCompletion)
    let repeatFailed = repeating.sourceTerminated(failed: true).0
    #expect(repeatFailed == .forward && repeating.isFinished)

    var retrying = ResubscriptionStateMachine(policy: .retryAfterFailure(limit: 2))
    let decisions = (0..<3).map { _ in retrying.sourceTerminated(failed: true).0 }
    #expect(decisions == [.subscribeAgain, .subscribeAgain, .forward])

    var completing = ResubscriptionStateMachine(policy: .retryAfterFailure(limit: nil))
    let completed = completing.sourceTerminated(failed: false).0
    #expect(completed == .forward)
  }

  @Test("finishing while a subscription is being made has the loop dispose it; nothing is decided afterwards")
  func finishDuringAttach() {
    var machine = ResubscriptionStateMachine(policy: .retryAfterFailure(limit: nil))
    _ = machine.willAttach()
    let live = machine.finish()
    let afterAttach = machine.didAttach(ActionDisposable())
    let startsAgain = machine.willAttach()
    let laterEnd = machine.sourceTerminated(failed: true).0
    #expect(live == nil)
    #expect(afterAttach == .dispose)
    #expect(!startsAgain)
    #expect(laterEnd == .none)
  }

  @Test("finishing hands back the live subscription, once")
  func finishReturnsLive() {
    var machine = ResubscriptionStateMachine(policy: .repeatAfterCompletion)
    let subscription = ActionDisposable()
    _ = machine.willAttach()
    let afterAttach = machine.didAttach(subscription)
    let first = machine.finish()
    let second = machine.finish()
    #expect(afterAttach == .keep)
    #expect(first === subscription)
    #expect(second == nil)
  }
}

@Suite("repeat across threads")
struct RepeatAcrossThreadsTests {
  @Test("-repeat of a source subscribed on the background scheduler resubscribes there, 10 000 times")
  nonisolated func repeatOnBackground() async {
    let subscriptions = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(subscriptions.increment())
      subscriber.sendCompleted()
      return nil
    }
    #expect(source.repeat().take(10_000).toArray(timeout: .seconds(60)) == .success(Array(1...10_000)))
    #expect(subscriptions.value == 10_000)
  }
}
