import Testing

@testable import AsyncSignals

@MainActor
@Suite("Aggregating: collect, takeLast, aggregate, any, all")
struct AggregatingTests {
  // MARK: collect

  @Test("-collect sends one array of all the values at completion")
  func collect() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.collect())
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(recorder.events.isEmpty)
    subject.sendCompleted()
    #expect(recorder.events == [.next([1, 2]), .completed])
  }

  @Test("-collect of an empty signal sends an empty array; each subscription collects anew")
  func collectEmptyAndPerSubscription() {
    #expect(EventRecorder(Signal<Int, TestError>.empty.collect()).events == [.next([]), .completed])
    let source = SyncSource<Int?, TestError>([1, nil])
    #expect(EventRecorder(source.signal.collect()).values == [[1, nil]])
    #expect(EventRecorder(source.signal.collect()).values == [[1, nil]])
  }

  @Test("-collect: an error passes through and nothing is sent; disposal reaches the source")
  func collectErrorAndDisposal() {
    let failing = SyncSource<Int, TestError>([1, 2], then: .error(TestError(code: 1)))
    #expect(EventRecorder(failing.signal.collect()).events == [.error(TestError(code: 1))])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.collect())
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: takeLast

  @Test("-takeLast: sends the last n values, in order, at completion")
  func takeLast() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.takeLast(2))
    for value in 1...5 { subject.sendNext(value) }
    #expect(recorder.events.isEmpty)
    subject.sendCompleted()
    #expect(recorder.events == [.next(4), .next(5), .completed])
  }

  @Test("-takeLast: sends fewer when there were fewer; takeLast(0) sends only completion")
  func takeLastFewer() {
    let source = SyncSource<Int, TestError>([1, 2])
    #expect(EventRecorder(source.signal.takeLast(5)).events == [.next(1), .next(2), .completed])
    #expect(EventRecorder(source.signal.takeLast(0)).events == [.completed])
  }

  @Test("-takeLast: an error passes through; a downstream that stops ends the flush; disposal reaches the source")
  func takeLastErrorStopAndDisposal() {
    let failing = SyncSource<Int, TestError>([1, 2], then: .error(TestError(code: 2)))
    #expect(EventRecorder(failing.signal.takeLast(1)).events == [.error(TestError(code: 2))])
    let source = SyncSource<Int, TestError>([1, 2, 3])
    #expect(EventRecorder(source.signal.takeLast(3).take(2)).events == [.next(1), .next(2), .completed])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.takeLast(1))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("-takeLast: a value's callback that disposes the subscription ends the flush: no later value, no completion")
  func takeLastDisposedInCallback() {
    let subject = Subject<Int, Never>()
    let received = Locked<[String]>([])
    let subscription = Locked<(any Disposable)?>(nil)
    subscription.value = subject.takeLast(3).subscribeNext(
      { value in
        received.append("\(value)")
        subscription.value?.dispose()
      }, completed: { received.append("completed") })
    for value in 1...5 { subject.sendNext(value) }
    subject.sendCompleted()
    #expect(received.value == ["3"])
    #expect(subject.subscriberCount == 0)
  }

  @Test("takeLast(_:) with a negative count stops with a message naming the operator and the argument")
  nonisolated func takeLastNegative() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.takeLast(-1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("takeLast(_:): count must not be negative"))
  }

  // MARK: aggregate

  @Test("-aggregateWithStart:reduce: sends only the final value at completion")
  func aggregate() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.aggregate(0) { $0 + $1 })
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(recorder.events.isEmpty)
    subject.sendCompleted()
    #expect(recorder.events == [.next(3), .completed])
  }

  @Test("-aggregateWithStart:reduce: sends the start value when the signal was empty")
  func aggregateEmpty() {
    #expect(EventRecorder(Signal<Int, TestError>.empty.aggregate(42) { $0 + $1 }).events == [.next(42), .completed])
  }

  @Test("-aggregateWithStart:reduceWithIndex: passes the 0-based index")
  func aggregateWithIndex() {
    let source = SyncSource<String, TestError>(["a", "b"])
    let joined = source.signal.aggregate("", withIndex: { text, letter, index in text + "\(index)\(letter)" })
    #expect(EventRecorder(joined).values == ["0a1b"])
    #expect(EventRecorder(joined).values == ["0a1b"])
  }

  @Test("-aggregateWithStartFactory:reduce: makes the start value anew for each subscription")
  func aggregateStartFactory() {
    final class Box: @unchecked Sendable {
      // guarded by: the serial delivery of the one subscription that owns it.
      var values: [Int] = []
    }
    let made = Locked(0)
    let source = SyncSource<Int, TestError>([1, 2])
    let boxes = source.signal.aggregate(startFactory: {
      made.increment()
      return Box()
    }) { box, value in
      box.values.append(value)
      return box
    }
    #expect(EventRecorder(boxes).values.map(\.values) == [[1, 2]])
    #expect(EventRecorder(boxes).values.map(\.values) == [[1, 2]])
    #expect(made.value == 2)
  }

  @Test("aggregate: an error passes through and nothing else is sent; disposal reaches the source")
  func aggregateErrorAndDisposal() {
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 3)))
    #expect(EventRecorder(failing.signal.aggregate(0) { $0 + $1 }).events == [.error(TestError(code: 3))])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.aggregate(startFactory: { 0 }) { $0 + $1 })
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: any / all

  @Test("-any sends YES on the first value, completes and disposes the source")
  func any() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.any())
    subject.sendNext(0)
    #expect(recorder.events == [.next(true), .completed])
    #expect(subject.subscriberCount == 0)
    #expect(EventRecorder(Signal<Int, TestError>.empty.any()).events == [.next(false), .completed])
  }

  @Test("-any: sends YES on the first value that passes, NO if none does")
  func anyWhere() {
    let source = SyncSource<Int, TestError>([1, 3, 4, 5])
    #expect(EventRecorder(source.signal.any(where: { $0.isMultiple(of: 2) })).events == [.next(true), .completed])
    #expect(source.disposals.value == 1)
    #expect(EventRecorder(source.signal.any(where: { $0 > 9 })).events == [.next(false), .completed])
  }

  @Test("-all: sends NO on the first value that fails, YES at completion")
  func all() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.all(where: { $0 > 0 }))
    subject.sendNext(1)
    #expect(recorder.events.isEmpty)
    subject.sendNext(0)
    #expect(recorder.events == [.next(false), .completed])
    #expect(subject.subscriberCount == 0)
    let source = SyncSource<Int, TestError>([1, 2])
    #expect(EventRecorder(source.signal.all(where: { $0 > 0 })).events == [.next(true), .completed])
    #expect(EventRecorder(Signal<Int, TestError>.empty.all(where: { _ in false })).values == [true])
  }

  @Test("any and all forward an error instead of RAC's NO (nothing is dropped silently)")
  func anyAllForwardErrors() {
    let failing = SyncSource<Int, TestError>([], then: .error(TestError(code: 4)))
    #expect(EventRecorder(failing.signal.any()).events == [.error(TestError(code: 4))])
    #expect(EventRecorder(failing.signal.any(where: { _ in true })).events == [.error(TestError(code: 4))])
    #expect(EventRecorder(failing.signal.all(where: { _ in true })).events == [.error(TestError(code: 4))])
    // RAC's behaviour, made explicit:
    #expect(
      EventRecorder(failing.signal.any().catch(to: Signal<Bool, Never>.return(false))).events == [
        .next(false), .completed,
      ])
  }

  @Test("any: a handler that sends back from the completion callback receives nothing more")
  func anyReentrant() {
    let source = LoopbackSource<Int, Never>()
    let log = Locked<[String]>([])
    source.signal.any().subscribeNext(
      { log.append("\($0)") },
      completed: {
        log.append("completed")
        source.sendNext(2)
      })
    source.sendNext(1)
    #expect(log.value == ["true", "completed"])
  }

  @Test("disposing any and all disposes the source")
  func anyAllDisposal() {
    let subject = Subject<Int, Never>()
    let recorders = [EventRecorder(subject.any()), EventRecorder(subject.all(where: { _ in true }))]
    #expect(subject.subscriberCount == 2)
    for recorder in recorders { recorder.dispose() }
    #expect(subject.subscriberCount == 0)
  }

  @Test("aggregating closures are released when the subscription ends or is disposed (guarantee 8)")
  func closuresReleased() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, Never>()
    let (ended, disposed): (EventRecorder<Bool, Never>, EventRecorder<Int, Never>) = {
      let tracked = tracker.make()
      let ended = EventRecorder(
        subject.any(where: { _ in
          _ = tracked
          return true
        }))
      let disposed = EventRecorder(
        subject.aggregate(startFactory: {
          _ = tracked
          return 0
        }) {
          _ = tracked
          return $0 + $1
        }
        .all(where: { _ in
          _ = tracked
          return true
        }).map { _ in 0 })
      return (ended, disposed)
    }()
    subject.sendNext(1)
    #expect(ended.isCompleted)
    #expect(tracker.liveCount == 1)
    disposed.dispose()
    #expect(tracker.liveCount == 0)
  }
}
