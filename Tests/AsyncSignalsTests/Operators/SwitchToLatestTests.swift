import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("switchToLatest, flattenMapLatest, switch(_:cases:), if(_:then:else:)")
struct SwitchToLatestTests {
  @Test("forwards only the latest inner signal; the previous one is disposed at the switch (RAC's -switchToLatest)")
  func followsLatest() {
    let outer = Subject<Signal<String, TestError>, TestError>()
    let first = Subject<String, TestError>()
    let second = Subject<String, TestError>()
    let recorder = EventRecorder(outer.switchToLatest())
    outer.sendNext(first)
    first.sendNext("a1")
    outer.sendNext(second)
    #expect(first.subscriberCount == 0)
    first.sendNext("a2")
    second.sendNext("b1")
    #expect(recorder.events == [.next("a1"), .next("b1")])
  }

  @Test("the previous inner is disposed before the new one is subscribed to")
  func disposeBeforeSubscribe() {
    let log = Locked<[String]>([])
    func inner(_ name: String) -> Signal<Int, Never> {
      .create { _ in
        log.append("subscribe \(name)")
        return ActionDisposable { log.append("dispose \(name)") }
      }
    }
    let outer = Subject<Signal<Int, Never>, Never>()
    _ = EventRecorder(outer.switchToLatest())
    outer.sendNext(inner("a"))
    outer.sendNext(inner("b"))
    #expect(log.value == ["subscribe a", "dispose a", "subscribe b"])
  }

  @Test("completes when the outer and the latest inner have completed (RAC's rule)")
  func completion() {
    let outer = Subject<Signal<Int, TestError>, TestError>()
    let inner = Subject<Int, TestError>()
    let recorder = EventRecorder(outer.switchToLatest())
    outer.sendNext(inner)
    outer.sendCompleted()
    inner.sendNext(1)
    #expect(!recorder.isTerminated)
    inner.sendCompleted()
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test("an inner that completed before the outer does not end the result; the outer's completion does")
  func innerFirst() {
    let outer = Subject<Signal<Int, TestError>, TestError>()
    let recorder = EventRecorder(outer.switchToLatest())
    outer.sendNext(.values([1]))
    #expect(!recorder.isTerminated)
    outer.sendNext(.values([2]))
    outer.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("a completion of a replaced inner is ignored")
  func staleCompletion() {
    let outer = Subject<Signal<Int, TestError>, TestError>()
    let first = Subject<Int, TestError>()
    let recorder = EventRecorder(outer.switchToLatest())
    outer.sendNext(first)
    outer.sendNext(.never)
    outer.sendCompleted()
    first.sendCompleted()  // already disposed: nothing happens
    #expect(!recorder.isTerminated)
  }

  @Test("a failure of the outer or of the latest inner fails the result and disposes the other")
  func failure() {
    let outer = Subject<Signal<Int, TestError>, TestError>()
    let inner = Subject<Int, TestError>()
    let recorder = EventRecorder(outer.switchToLatest())
    outer.sendNext(inner)
    inner.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(outer.subscriberCount == 0)

    let outerTwo = Subject<Signal<Int, TestError>, TestError>()
    let innerTwo = Subject<Int, TestError>()
    let second = EventRecorder(outerTwo.switchToLatest())
    outerTwo.sendNext(innerTwo)
    outerTwo.sendError(TestError(code: 2))
    #expect(second.events == [.error(TestError(code: 2))])
    #expect(innerTwo.subscriberCount == 0)
  }

  @Test("disposing the result disposes the outer and the inner and releases the callbacks (guarantee 8)")
  func disposal() {
    let tracker = LifetimeTracker()
    let outer = Subject<Signal<Int, Never>, Never>()
    let inner = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      return outer.switchToLatest().subscribeNext { _ in _ = captured }
    }()
    outer.sendNext(inner)
    disposable.dispose()
    #expect(outer.subscriberCount == 0 && inner.subscriberCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("a downstream that stops early disposes the outer and the inner")
  func downstreamStop() {
    let outer = Subject<Signal<Int, Never>, Never>()
    let inner = Subject<Int, Never>()
    let recorder = EventRecorder(outer.switchToLatest().firstValues(1))
    outer.sendNext(inner)
    inner.sendNext(5)
    #expect(recorder.events == [.next(5), .completed])
    #expect(outer.subscriberCount == 0 && inner.subscriberCount == 0)
  }

  @Test("a callback that switches to a new inner from inside a value: the old one is silenced at once")
  func reentrantSwitch() {
    let outer = Subject<Signal<Int, Never>, Never>()
    let first = Subject<Int, Never>()
    let log = Locked<[Int]>([])
    outer.switchToLatest().subscribeNext { value in
      log.append(value)
      if value == 1 { outer.sendNext(.values([100])) }
    }
    outer.sendNext(first)
    first.sendNext(1)
    first.sendNext(2)  // disposed by the switch
    #expect(log.value == [1, 100])
    #expect(first.subscriberCount == 0)
  }

  @Test("two threads, one sending on the old inner while the other switches: nothing old after the switch")
  nonisolated func twoThreads() async {
    let outer = Subject<Signal<Int, Never>, Never>()
    let old = Subject<Int, Never>()
    let new = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let probe = OverlapProbe()
    outer.switchToLatest().subscribeNext { value in
      probe.enter()
      received.append(value)
      probe.leave()
    }
    outer.sendNext(old)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      if side == 0 {
        for value in 0..<10_000 { old.sendNext(value) }
      } else {
        outer.sendNext(new)
        for value in 100_000..<110_000 { new.sendNext(value) }
      }
    }
    let values = received.value
    let firstNew = values.firstIndex { $0 >= 100_000 } ?? values.count
    #expect(values[firstNew...].allSatisfy { $0 >= 100_000 })
    #expect(Array(values[firstNew...]) == Array(100_000..<110_000))
    #expect(values[..<firstNew] == Array(0..<firstNew)[...])
    #expect(probe.overlaps == 0)
  }

  // MARK: flattenMapLatest

  @Test("flattenMapLatest follows the signal mapped from the latest value; the previous one is disposed first")
  func flattenMapLatestFollowsLatest() {
    let log = Locked<[String]>([])
    let inners = ["a": Subject<String, TestError>(), "b": Subject<String, TestError>()]
    let keys = Subject<String, TestError>()
    let recorder = EventRecorder(
      keys.flattenMapLatest { key in
        inners[key]!.initially { log.append("subscribe \(key)") }.doDisposed { log.append("dispose \(key)") }
      })
    keys.sendNext("a")
    inners["a"]!.sendNext("a1")
    keys.sendNext("b")
    inners["a"]!.sendNext("a2")  // replaced: dropped
    inners["b"]!.sendNext("b1")
    #expect(recorder.values == ["a1", "b1"])
    #expect(log.value == ["subscribe a", "dispose a", "subscribe b"])
    #expect(inners["a"]!.subscriberCount == 0)
  }

  @Test("flattenMapLatest completes when the source and the latest mapped signal have completed")
  func flattenMapLatestCompletion() {
    let keys = Subject<Int, TestError>()
    let inner = Subject<Int, TestError>()
    let recorder = EventRecorder(keys.flattenMapLatest { _ in inner })
    keys.sendNext(1)
    keys.sendCompleted()
    inner.sendNext(10)
    #expect(recorder.events == [.next(10)])
    inner.sendCompleted()
    #expect(recorder.events == [.next(10), .completed])
  }

  @Test("flattenMapLatest fails with the failure of the source or of the mapped signal, and disposes the other")
  func flattenMapLatestFailure() {
    let keys = Subject<Int, TestError>()
    let inner = Subject<Int, TestError>()
    let failedInner = EventRecorder(keys.flattenMapLatest { _ in inner })
    keys.sendNext(1)
    inner.sendError(TestError(code: 1))
    #expect(failedInner.events == [.error(TestError(code: 1))])
    #expect(keys.subscriberCount == 0)

    let otherKeys = Subject<Int, TestError>()
    let otherInner = Subject<Int, TestError>()
    let failedSource = EventRecorder(otherKeys.flattenMapLatest { _ in otherInner })
    otherKeys.sendNext(1)
    otherKeys.sendError(TestError(code: 2))
    #expect(failedSource.events == [.error(TestError(code: 2))])
    #expect(otherInner.subscriberCount == 0)
  }

  @Test("flattenMapLatest: disposing disposes the source and the mapped signal and releases the closures (guarantee 8)")
  func flattenMapLatestDisposal() {
    let tracker = LifetimeTracker()
    let keys = Subject<Int, Never>()
    let inner = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      return keys.flattenMapLatest { _ in
        _ = captured
        return inner
      }.subscribeNext { _ in _ = captured }
    }()
    keys.sendNext(1)
    #expect(inner.subscriberCount == 1)
    disposable.dispose()
    #expect(keys.subscriberCount == 0 && inner.subscriberCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("flattenMapLatest calls transform once per value, on each subscription anew (cold)")
  func flattenMapLatestTransformPerValue() {
    let calls = Locked<[Int]>([])
    let mapped = SyncSource<Int, Never>([1, 2]).signal.flattenMapLatest { value in
      calls.append(value)
      return .return(value * 10)
    }
    let first = EventRecorder(mapped)
    let second = EventRecorder(mapped)
    #expect(first.events == [.next(10), .next(20), .completed])
    #expect(second.events == first.events)
    #expect(calls.value == [1, 2, 1, 2])
  }

  // MARK: switch(_:cases:), if(_:then:else:)

  @Test("Signal.switch follows the case of the latest key, or the default (RAC's +switch:cases:default:)")
  func switchCases() {
    let key = Subject<String, TestError>()
    let a = Subject<Int, TestError>()
    let b = Subject<Int, TestError>()
    let fallback = Subject<Int, TestError>()
    let recorder = EventRecorder(Signal.switch(key, cases: ["a": a, "b": b], default: fallback))
    key.sendNext("a")
    a.sendNext(1)
    b.sendNext(99)
    key.sendNext("b")
    a.sendNext(99)
    b.sendNext(2)
    key.sendNext("zzz")
    fallback.sendNext(3)
    #expect(recorder.values == [1, 2, 3])
    #expect(a.subscriberCount == 0 && b.subscriberCount == 0)
  }

  @Test("Signal.switch with unmatched: a key with no case fails with the caller's failure (RAC's NoMatchingCase)")
  func switchUnmatched() {
    let key = Subject<Int, TestError>()
    let recorder = EventRecorder(
      Signal.switch(key, cases: [1: .return("one")], unmatched: { TestError(code: $0) }))
    key.sendNext(1)
    key.sendNext(42)
    #expect(recorder.events == [.next("one"), .error(TestError(code: 42))])
    #expect(key.subscriberCount == 0)
  }

  @Test("Signal.switch: a nil key matches a nil case (RAC's RACTupleNil case)")
  func switchNilKey() {
    let key = Subject<String?, Never>()
    let recorder = EventRecorder(Signal.switch(key, cases: [nil: .return("none"), "x": .return("x")], default: .empty))
    key.sendNext(nil)
    key.sendNext("x")
    #expect(recorder.values == ["none", "x"])
  }

  @Test("Signal.if follows the then-signal after true and the else-signal after false (RAC's +if:then:else:)")
  func ifThenElse() {
    let condition = Subject<Bool, Never>()
    let yes = Subject<String, Never>()
    let no = Subject<String, Never>()
    let recorder = EventRecorder(Signal.if(condition, then: yes, else: no))
    condition.sendNext(true)
    yes.sendNext("y1")
    no.sendNext("n0")
    condition.sendNext(false)
    yes.sendNext("y2")
    no.sendNext("n1")
    condition.sendCompleted()
    no.sendCompleted()
    #expect(recorder.events == [.next("y1"), .next("n1"), .completed])
  }
}
