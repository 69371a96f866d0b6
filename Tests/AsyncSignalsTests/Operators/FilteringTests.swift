import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("Filtering: ignore, take, skip, take(until:)/take(while:), skip(until:)/skip(while:), distinctUntilChanged")
struct FilteringTests {
  // MARK: ignore

  @Test("-ignore: drops values equal to the given one and passes completion through")
  func ignoreDropsEqualValues() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.ignore(2))
    for value in [1, 2, 3, 2] { subject.sendNext(value) }
    subject.sendCompleted()
    #expect(recorder.events == [.next(1), .next(3), .completed])
  }

  @Test("-ignore:nil drops nils from a signal of optionals; an error passes through")
  func ignoreNil() {
    let subject = Subject<Int?, TestError>()
    let recorder = EventRecorder(subject.ignore(nil))
    subject.sendNext(nil)
    subject.sendNext(1)
    subject.sendError(TestError(code: 1))
    #expect(recorder.events == [.next(1), .error(TestError(code: 1))])
  }

  // MARK: take

  @Test("-take: sends the first n values, completes, and disposes the source")
  func takeFirstValues() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.take(2))
    subject.sendNext(1)
    #expect(subject.subscriberCount == 1)
    subject.sendNext(2)
    #expect(recorder.events == [.next(1), .next(2), .completed])
    #expect(subject.subscriberCount == 0)
    subject.sendNext(3)
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("-take: passes on a completion or error that comes before the n-th value")
  func takeEarlyTermination() {
    let completes = Subject<Int, TestError>()
    let completed = EventRecorder(completes.take(3))
    completes.sendNext(1)
    completes.sendCompleted()
    #expect(completed.events == [.next(1), .completed])

    let fails = Subject<Int, TestError>()
    let failed = EventRecorder(fails.take(3))
    fails.sendError(TestError(code: 2))
    #expect(failed.events == [.error(TestError(code: 2))])
  }

  @Test("-take:0 is +empty: it completes at once without subscribing")
  func takeZero() {
    let source = SyncSource<Int, TestError>([1, 2])
    #expect(EventRecorder(source.signal.take(0)).events == [.completed])
    #expect(source.subscriptions.value == 0)
  }

  @Test("-take: of a synchronous source stops it after the n-th value and runs its cleanup")
  func takeStopsSynchronousSource() {
    let sent = Locked(0)
    let cleanedUp = Locked(false)
    let source = Signal<Int, Never>.create { subscriber in
      for value in 0..<100 {
        sent.increment()
        subscriber.sendNext(value)
      }
      return ActionDisposable { cleanedUp.value = true }
    }
    #expect(EventRecorder(source.take(3)).events == [.next(0), .next(1), .next(2), .completed])
    #expect(cleanedUp.value)
  }

  @Test("-take: (guarantee 6) a handler that sends back into the source gets 0, 1, 2 and completion")
  func takeReentrant() {
    let source = LoopbackSource<Int, Never>()
    let log = Locked<[String]>([])
    source.signal.take(3).subscribeNext(
      { value in
        log.append("\(value)")
        source.sendNext(value + 1)
      }, completed: { log.append("completed") })
    source.sendNext(0)
    #expect(log.value == ["0", "1", "2", "completed"])
  }

  @Test("-take: a handler that sends back from the completion callback receives nothing more")
  func takeReentrantAfterCompletion() {
    let source = LoopbackSource<Int, TestError>()
    let log = Locked<[String]>([])
    source.signal.take(1).subscribeNext(
      { log.append("\($0)") }, error: { _ in log.append("error") },
      completed: {
        log.append("completed")
        source.sendNext(9)
        source.sendError(TestError())
      })
    source.sendNext(0)
    #expect(log.value == ["0", "completed"])
  }

  @Test("disposing -take: disposes the source")
  func takeDisposal() {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.take(5))
    #expect(subject.subscriberCount == 1)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("take(_:) with a negative count stops with a message naming the operator and the argument")
  nonisolated func takeNegative() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.take(-1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("take(_:): count must not be negative"))
  }

  // MARK: skip

  @Test("-skip: drops the first n values")
  func skipFirstValues() {
    let source = SyncSource<Int, TestError>([1, 2, 3, 4])
    #expect(EventRecorder(source.signal.skip(2)).events == [.next(3), .next(4), .completed])
    #expect(EventRecorder(source.signal.skip(0)).values == [1, 2, 3, 4])
  }

  @Test("-skip: passes errors through, even while skipping, and disposal reaches the source")
  func skipErrorsAndDisposal() {
    let source = SyncSource<Int, TestError>([1], then: .error(TestError(code: 3)))
    #expect(EventRecorder(source.signal.skip(5)).events == [.error(TestError(code: 3))])

    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.skip(1))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("skip(_:) with a negative count stops with a message naming the operator and the argument")
  nonisolated func skipNegative() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.skip(-2)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("skip(_:): count must not be negative"))
  }

  // MARK: take(until:) / take(while:)

  @Test("-takeUntilBlock: sends values until the predicate is true, excludes the match, completes, disposes")
  func takeUntilBlock() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.take(until: { $0 > 2 }))
    for value in [1, 2, 3, 1] { subject.sendNext(value) }
    #expect(recorder.events == [.next(1), .next(2), .completed])
    #expect(subject.subscriberCount == 0)
  }

  @Test("-takeWhileBlock: sends values while the predicate is true, then completes")
  func takeWhileBlock() {
    let source = SyncSource<Int, TestError>([0, 0, 1, 0])
    #expect(EventRecorder(source.signal.take(while: { $0 == 0 })).events == [.next(0), .next(0), .completed])
    #expect(source.disposals.value == 1)
  }

  @Test("-takeUntilBlock: and -takeWhileBlock: pass an earlier completion or error through")
  func takeUntilEarlyEnd() {
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 5)))
    #expect(EventRecorder(failing.signal.take(until: { $0 > 9 })).events == [.next(1), .error(TestError(code: 5))])
    let completing = SyncSource<Int, TestError>([1])
    #expect(EventRecorder(completing.signal.take(while: { $0 < 9 })).events == [.next(1), .completed])
  }

  @Test("-takeUntilBlock: a handler that sends back from the completion callback receives nothing more")
  func takeUntilReentrant() {
    let source = LoopbackSource<Int, Never>()
    let log = Locked<[String]>([])
    source.signal.take(until: { $0 == 3 }).subscribeNext(
      { log.append("\($0)") },
      completed: {
        log.append("completed")
        source.sendNext(1)
      })
    source.sendNext(1)
    source.sendNext(3)
    #expect(log.value == ["1", "completed"])
  }

  @Test("disposing take(until:) and take(while:) disposes the source")
  func takeUntilDisposal() {
    let subject = Subject<Int, Never>()
    let untilRecorder = EventRecorder(subject.take(until: { _ in false }))
    let whileRecorder = EventRecorder(subject.take(while: { _ in true }))
    #expect(subject.subscriberCount == 2)
    untilRecorder.dispose()
    whileRecorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: skip(until:) / skip(while:)

  @Test("-skipUntilBlock: skips until the predicate is true, then passes the match and everything after")
  func skipUntilBlock() {
    let calls = Locked(0)
    let source = SyncSource<Int, TestError>([1, 2, 5, 1, 2])
    let skipped = source.signal.skip(until: { value in
      calls.increment()
      return value > 4
    })
    #expect(EventRecorder(skipped).events == [.next(5), .next(1), .next(2), .completed])
    #expect(calls.value == 3)  // not called once it has matched
  }

  @Test("-skipWhileBlock: skips while the predicate is true, then passes everything")
  func skipWhileBlock() {
    let source = SyncSource<Character, TestError>([" ", " ", "a", " ", "b"])
    #expect(EventRecorder(source.signal.skip(while: { $0 == " " })).values == ["a", " ", "b"])
  }

  @Test("-skipUntilBlock: and -skipWhileBlock: pass errors through while skipping; disposal reaches the source")
  func skipUntilErrorsAndDisposal() {
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 6)))
    #expect(EventRecorder(failing.signal.skip(until: { _ in false })).events == [.error(TestError(code: 6))])
    #expect(EventRecorder(failing.signal.skip(while: { _ in true })).events == [.error(TestError(code: 6))])

    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.skip(while: { _ in true }))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: distinctUntilChanged

  @Test("-distinctUntilChanged drops values equal to the previous one; the first always passes")
  func distinctUntilChanged() {
    let source = SyncSource<Int, TestError>([20, 20, 21, 20, 20])
    #expect(
      EventRecorder(source.signal.distinctUntilChanged()).events == [.next(20), .next(21), .next(20), .completed])
  }

  @Test("-distinctUntilChanged lets a first nil through and compares optionals")
  func distinctUntilChangedOptionals() {
    let source = SyncSource<Int?, TestError>([nil, nil, 1, 1, nil])
    #expect(EventRecorder(source.signal.distinctUntilChanged()).values == [nil, 1, nil])
  }

  @Test("distinctUntilChanged(by:) compares with the last value sent, using the closure")
  func distinctUntilChangedBy() {
    let source = SyncSource<Int, TestError>([1, 2, 3, 4, 10])
    // "Within 2 of the last value sent": 2 and 3 are within 2 of 1; 4 is not, so it passes.
    let distinct = source.signal.distinctUntilChanged(by: { abs($0 - $1) <= 2 })
    #expect(EventRecorder(distinct).values == [1, 4, 10])
  }

  @Test("distinctUntilChanged passes errors through and disposal reaches the source")
  func distinctUntilChangedErrorsAndDisposal() {
    let failing = SyncSource<Int, TestError>([1, 1], then: .error(TestError(code: 7)))
    #expect(EventRecorder(failing.signal.distinctUntilChanged()).events == [.next(1), .error(TestError(code: 7))])

    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.distinctUntilChanged(by: ==))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("each subscription to a stateful filter starts afresh")
  func statePerSubscription() {
    let source = SyncSource<Int, TestError>([1, 1, 2])
    let distinct = source.signal.distinctUntilChanged().skip(1)
    #expect(EventRecorder(distinct).values == [2])
    #expect(EventRecorder(distinct).values == [2])
  }

  @Test("filtering closures are released when the subscription ends or is disposed (guarantee 8)")
  func closuresReleased() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, Never>()
    let (ended, disposed): (EventRecorder<Int, Never>, EventRecorder<Int, Never>) = {
      let tracked = tracker.make()
      let ended = EventRecorder(
        subject.take(until: { _ in
          _ = tracked
          return false
        }).skip(while: { _ in
          _ = tracked
          return false
        })
        .take(1))
      let disposed = EventRecorder(
        subject.take(while: { _ in
          _ = tracked
          return true
        }).skip(until: { _ in
          _ = tracked
          return true
        })
        .distinctUntilChanged(by: { _, _ in
          _ = tracked
          return false
        }))
      return (ended, disposed)
    }()
    subject.sendNext(1)
    #expect(ended.isCompleted)
    #expect(tracker.liveCount == 1)
    disposed.dispose()
    #expect(tracker.liveCount == 0)
  }
}
