import Testing

@testable import AsyncSignals

@MainActor
@Suite("Transforming: map, filter, replace(with:), startWith, scan, combinePrevious")
struct TransformingTests {
  @Test("map transforms values and passes terminal events through")
  func map() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.map { "\($0 * 2)" })
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendError(TestError(code: 3))
    #expect(recorder.events == [.next("2"), .next("4"), .error(TestError(code: 3))])
  }

  @Test("filter keeps the values that pass and passes completion through")
  func filter() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.filter { $0.isMultiple(of: 2) })
    for value in 1...5 { subject.sendNext(value) }
    subject.sendCompleted()
    #expect(recorder.events == [.next(2), .next(4), .completed])
  }

  @Test("compactMap sends the non-nil results, skips the nil ones, and passes terminal events through")
  func compactMap() {
    let subject = Subject<String, TestError>()
    let recorder = EventRecorder(subject.compactMap { Int($0) })
    subject.sendNext("12")
    subject.sendNext("x")
    subject.sendNext("7")
    subject.sendError(TestError(code: 3))
    subject.sendNext("8")
    #expect(recorder.events == [.next(12), .next(7), .error(TestError(code: 3))])
    let completing = Subject<Int?, Never>()
    let completed = EventRecorder(completing.compactMap { $0 })
    completing.sendNext(nil)
    completing.sendNext(1)
    completing.sendCompleted()
    #expect(completed.events == [.next(1), .completed])
  }

  @Test("compactMap: disposing the result disposes the upstream subscription, and releases the transform")
  func compactMapDisposal() {
    let tracker = LifetimeTracker()
    let disposed = Locked(false)
    let source = Signal<Int, Never>.create { _ in ActionDisposable { disposed.value = true } }
    let subscription: any Disposable = {
      let tracked = tracker.make()
      return source.compactMap { value -> Int? in
        _ = tracked
        return value
      }.subscribeNext { _ in }
    }()
    #expect(tracker.liveCount == 1)
    subscription.dispose()
    #expect(disposed.value)
    #expect(tracker.liveCount == 0)
  }

  @Test("disposing a map or filter chain disposes the upstream subscription")
  func disposal() {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.map { $0 + 1 }.filter { $0 > 0 })
    #expect(subject.subscriberCount == 1)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: replace(with:)

  @Test("-mapReplace: replaces every value and passes terminal events through")
  func replace() {
    let source = SyncSource<Int, TestError>([1, 2], then: .error(TestError(code: 1)))
    #expect(
      EventRecorder(source.signal.replace(with: "x")).events == [.next("x"), .next("x"), .error(TestError(code: 1))])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.replace(with: 0))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: startWith

  @Test("-startWith: sends the value first, then the receiver's events")
  func startWith() {
    let source = SyncSource<Int, TestError>([1, 2])
    #expect(EventRecorder(source.signal.startWith(0)).events == [.next(0), .next(1), .next(2), .completed])
  }

  @Test("-startWith: sends the value before subscribing and passes a failure through")
  func startWithOrder() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.startWith(0))
    #expect(recorder.events == [.next(0)])
    #expect(subject.subscriberCount == 1)
    subject.sendError(TestError(code: 2))
    #expect(recorder.events == [.next(0), .error(TestError(code: 2))])
  }

  @Test("-startWith: does not subscribe when the downstream stops at the first value; disposal reaches the source")
  func startWithStop() {
    let source = SyncSource<Int, Never>([1])
    #expect(EventRecorder(source.signal.startWith(0).take(1)).events == [.next(0), .completed])
    #expect(source.subscriptions.value == 0)

    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.startWith(0))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: scan

  @Test("-scanWithStart:reduce: sends every intermediate result, starting from the start value")
  func scan() {
    let source = SyncSource<Int, TestError>([1, 2, 3])
    let totals = source.signal.scan(0) { $0 + $1 }
    #expect(EventRecorder(totals).events == [.next(1), .next(3), .next(6), .completed])
    #expect(EventRecorder(totals).values == [1, 3, 6])  // each subscription starts again from the start value
  }

  @Test("-scanWithStart:reduceWithIndex: passes the 0-based index of each value")
  func scanWithIndex() {
    let source = SyncSource<String, TestError>(["a", "b", "c"])
    let indexed = source.signal.scan("") { text, letter, index in text + "\(index)\(letter)" }
    #expect(EventRecorder(indexed).values == ["0a", "0a1b", "0a1b2c"])
    #expect(EventRecorder(indexed).values == ["0a", "0a1b", "0a1b2c"])
  }

  @Test("scan passes a failure through and disposal reaches the source")
  func scanFailureAndDisposal() {
    let source = SyncSource<Int, TestError>([1], then: .error(TestError(code: 4)))
    #expect(EventRecorder(source.signal.scan(10) { $0 + $1 }).events == [.next(11), .error(TestError(code: 4))])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.scan(0, withIndex: { total, value, _ in total + value }))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("scan (guarantee 6): a value sent back from the handler sees the updated accumulator")
  func scanReentrant() {
    let source = LoopbackSource<Int, Never>()
    let totals = Locked<[Int]>([])
    source.signal.scan(0) { $0 + $1 }.take(3).subscribeNext { total in
      totals.append(total)
      source.sendNext(1)
    }
    source.sendNext(1)
    #expect(totals.value == [1, 2, 3])
  }

  // MARK: combinePrevious

  @Test("-combinePreviousWithStart:reduce: combines each value with the previous one, the first with start")
  func combinePrevious() {
    let source = SyncSource<Int, TestError>([3, 5, 4])
    let deltas = source.signal.combinePrevious(0) { previous, current in current - previous }
    #expect(EventRecorder(deltas).events == [.next(3), .next(2), .next(-1), .completed])
    #expect(EventRecorder(deltas).values == [3, 2, -1])
  }

  @Test("combinePrevious passes a failure through and disposal reaches the source")
  func combinePreviousFailureAndDisposal() {
    let source = SyncSource<Int, TestError>([1], then: .error(TestError(code: 5)))
    let pairs = source.signal.combinePrevious(0) { "\($0)-\($1)" }
    #expect(EventRecorder(pairs).events == [.next("0-1"), .error(TestError(code: 5))])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.combinePrevious(0) { $0 + $1 })
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("scan and combinePrevious release their closures when the subscription ends (guarantee 8)")
  func closuresReleased() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, TestError>()
    let recorder: EventRecorder<Int, TestError> = {
      let tracked = tracker.make()
      return EventRecorder(
        subject.scan(0) {
          _ = tracked
          return $0 + $1
        }.scan(
          0,
          withIndex: { _, value, _ in
            _ = tracked
            return value
          }
        )
        .combinePrevious(0) {
          _ = tracked
          return $1
        })
    }()
    #expect(tracker.liveCount == 1)
    subject.sendError(TestError())
    #expect(recorder.didFail)
    #expect(tracker.liveCount == 0)
  }
}
