import Testing

@testable import AsyncSignals

@MainActor
@Suite("bind and flattenMap")
struct BindTests {
  @Test("the step runs once per subscription and may keep state")
  func stepPerSubscription() {
    let steps = Locked(0)
    let numbered = Signal<String, Never>.create { subscriber in
      for word in ["a", "b"] { subscriber.sendNext(word) }
      subscriber.sendCompleted()
      return nil
    }.bind {
      steps.increment()
      var index = 0
      return { word, _ in
        index += 1
        return .return("\(index)\(word)")
      }
    }
    #expect(EventRecorder(numbered).events == [.next("1a"), .next("2b"), .completed])
    #expect(EventRecorder(numbered).values == ["1a", "2b"])
    #expect(steps.value == 2)
  }

  @Test("a nil signal ends the binding at once and disposes the source")
  func nilEnds() {
    let sourceDisposed = Locked(false)
    let source = Signal<Int, Never>.create { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }
      return ActionDisposable { sourceDisposed.value = true }
    }
    let bound = source.bind { { value, _ in value < 3 ? .return(value) : nil } }
    #expect(EventRecorder(bound).events == [.next(1), .next(2), .completed])
    #expect(sourceDisposed.value)
  }

  @Test("stop ends the binding after the returned signal completes")
  func stopAfterSignal() {
    let subject = Subject<Int, Never>()
    let inner = Subject<String, Never>()
    let recorder = EventRecorder(subject.bind { { _, stop in stop = true; return inner } })
    subject.sendNext(1)
    subject.sendNext(2)  // ignored: the binding stopped
    inner.sendNext("x")
    #expect(recorder.events == [.next("x")])
    inner.sendCompleted()
    #expect(recorder.events == [.next("x"), .completed])
    #expect(subject.subscriberCount == 0)
  }

  @Test("flattenMap merges inner signals and completes when the source and every inner have completed")
  func flattenMapMerges() {
    let source = Subject<Int, TestError>()
    let inners = [Subject<String, TestError>(), Subject<String, TestError>()]
    let recorder = EventRecorder(source.flattenMap { inners[$0] })
    source.sendNext(0)
    source.sendNext(1)
    inners[1].sendNext("b1")
    inners[0].sendNext("a1")
    source.sendCompleted()
    inners[0].sendCompleted()
    #expect(recorder.events == [.next("b1"), .next("a1")])
    inners[1].sendNext("b2")
    inners[1].sendCompleted()
    #expect(recorder.events == [.next("b1"), .next("a1"), .next("b2"), .completed])
  }

  @Test("a failure of the source or of an inner fails the result and disposes the rest")
  func failures() {
    let source = Subject<Int, TestError>()
    let inner = Subject<Int, TestError>()
    let recorder = EventRecorder(source.flattenMap { _ in inner })
    source.sendNext(0)
    inner.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(source.subscriberCount == 0)

    let other = Subject<Int, TestError>()
    let innerTwo = Subject<Int, TestError>()
    let second = EventRecorder(other.flattenMap { _ in innerTwo })
    other.sendNext(0)
    other.sendError(TestError(code: 2))
    #expect(second.events == [.error(TestError(code: 2))])
    #expect(innerTwo.subscriberCount == 0)
  }

  @Test("disposing the result disposes the source and every inner")
  func disposal() {
    let source = Subject<Int, Never>()
    let inner = Subject<Int, Never>()
    let recorder = EventRecorder(source.flattenMap { _ in inner })
    source.sendNext(0)
    #expect(inner.subscriberCount == 1)
    recorder.dispose()
    #expect(source.subscriberCount == 0)
    #expect(inner.subscriberCount == 0)
  }

  @Test("a downstream that stops early (through another bind) disposes everything")
  func downstreamStop() {
    let source = Subject<Int, Never>()
    let inner = Subject<Int, Never>()
    let firstOnly = source.flattenMap { _ in inner }.bind { { value, stop in stop = true; return .return(value) } }
    let recorder = EventRecorder(firstOnly)
    source.sendNext(0)
    inner.sendNext(7)
    inner.sendNext(8)
    #expect(recorder.events == [.next(7), .completed])
    #expect(source.subscriberCount == 0)
    #expect(inner.subscriberCount == 0)
  }

  @Test("the step is released when the binding ends, even while its disposable is kept (guarantee 8)")
  func stepReleased() {
    let tracker = LifetimeTracker()
    let source = Subject<Int, Never>()
    let makeSubscription: (Subject<Int, Never>) -> any Disposable = { source in
      let tracked = tracker.make()
      return source.flattenMap { value in
        _ = tracked
        return .return(value)
      }.subscribeNext { _ in }
    }
    let disposed = makeSubscription(source)
    disposed.dispose()
    #expect(tracker.liveCount == 0)
    let completed = makeSubscription(source)
    source.sendNext(1)
    source.sendCompleted()
    #expect(tracker.liveCount == 0)
    withExtendedLifetime((disposed, completed)) {}
  }

  @Test("return's signal is spliced in without a subscription, in order with the other inners' values")
  func returnSpliced() {
    let source = Subject<Int, Never>()
    let inner = Subject<Int, Never>()
    let sourceDisposed = Locked(false)
    let watched = Signal<Int, Never>.create { subscriber in
      source.subscribe(subscriber)
      return ActionDisposable { sourceDisposed.value = true }
    }
    let recorder = EventRecorder(
      watched.flattenMap { (value: Int) -> Signal<Int, Never> in value == 2 ? inner : .return(value * 10) }.take(3))
    source.sendNext(1)
    source.sendNext(2)
    inner.sendNext(20)
    #expect(!sourceDisposed.value)
    source.sendNext(3)  // the third value: take(3) stops, which ends the binding and its source
    #expect(recorder.events == [.next(10), .next(20), .next(30), .completed])
    #expect(sourceDisposed.value)
    #expect(inner.subscriberCount == 0)
  }

  @Test("return's value is known at once only where subscribing would send it at once (guarantee 5)")
  func valueSentAtOnceFollowsTheSubscriptionRule() {
    #expect(Signal<Int, Never>.return(1).valueSentAtOnce() == 1)  // on the main actor
    #expect(Signal<Int, Never>.empty.valueSentAtOnce() == nil)
    let onPlain = Locked<Int?>(0)
    onPlainThread { onPlain.value = Signal<Int, Never>.return(1).valueSentAtOnce() }
    #expect(onPlain.value == nil)  // a plain thread: `return` would send on the background scheduler
  }

  @Test("a downstream that stops at a spliced value stops the source at that value")
  func returnSplicedStops() {
    let reached = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      let ended = Locked(false)
      subscriber.didSubscribe(with: ActionDisposable { ended.value = true })
      for value in 1...100 where !ended.value {
        reached.value = value
        subscriber.sendNext(value)
      }
      return nil
    }
    let firstTwo = source.flattenMap { Signal<Int, Never>.return($0) }.attach { event in
      event.value == 2 ? .stop : .proceed
    }
    #expect(reached.value == 2)
    firstTwo.dispose()
  }
}
