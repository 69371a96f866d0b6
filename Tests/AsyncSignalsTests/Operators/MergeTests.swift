import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("merge, flatten, flatten(maxConcurrent:), concat of signals, Signal.concat, then")
struct MergeTests {
  // MARK: merge

  @Test("merge interleaves values as they arrive and completes when both have completed (RAC's -merge:)")
  func mergePairwise() {
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    let recorder = EventRecorder(first.merge(second))
    first.sendNext(1)
    second.sendNext(2)
    first.sendNext(3)
    first.sendCompleted()
    #expect(!recorder.isTerminated)
    second.sendNext(4)
    second.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .next(3), .next(4), .completed])
  }

  @Test("Signal.merge subscribes in collection order; the first failure ends it and disposes the rest")
  func mergeCollectionFailure() {
    let signals = [Subject<Int, TestError>(), Subject<Int, TestError>(), Subject<Int, TestError>()]
    let recorder = EventRecorder(Signal.merge(signals))
    #expect(signals.allSatisfy { $0.subscriberCount == 1 })
    signals[2].sendNext(3)
    signals[1].sendError(TestError(code: 1))
    signals[0].sendNext(1)
    #expect(recorder.events == [.next(3), .error(TestError(code: 1))])
    #expect(signals.allSatisfy { $0.subscriberCount == 0 })
  }

  @Test("Signal.merge of synchronous signals sends them in order; of nothing, completes at once")
  func mergeSynchronous() {
    let merged = Signal.merge([Signal<Int, Never>.values([1, 2]), .values([3])])
    #expect(EventRecorder(merged).events == [.next(1), .next(2), .next(3), .completed])
    #expect(EventRecorder(Signal<Int, Never>.merge([])).events == [.completed])
  }

  @Test("Signal.merge copies the collection when called (RAC copies it eagerly)")
  func mergeCopies() {
    var signals = [Signal<Int, Never>.return(1)]
    let merged = Signal.merge(signals)
    signals.append(.return(2))
    #expect(EventRecorder(merged).values == [1])
  }

  @Test("disposing a merge disposes every input and releases the callbacks (guarantee 8)")
  func mergeDisposal() {
    let tracker = LifetimeTracker()
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      return first.merge(second).subscribeNext { _ in _ = captured }
    }()
    disposable.dispose()
    #expect(tracker.liveCount == 0)
    #expect(first.subscriberCount == 0 && second.subscriberCount == 0)
  }

  @Test("a merge that completes releases its callbacks though its disposable is kept (guarantee 8)")
  func mergeTerminalReleases() {
    let tracker = LifetimeTracker()
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      return first.merge(second).subscribeNext { _ in _ = captured }
    }()
    first.sendCompleted()
    #expect(tracker.liveCount == 1)
    second.sendCompleted()
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(disposable) {}
  }

  @Test("a merge whose downstream stops early disposes every input")
  func mergeDownstreamStop() {
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let recorder = EventRecorder(first.merge(second).firstValues(2))
    first.sendNext(1)
    second.sendNext(2)
    #expect(recorder.events == [.next(1), .next(2), .completed])
    #expect(first.subscriberCount == 0 && second.subscriberCount == 0)
  }

  @Test("a merge callback that sends into a source gets that value after the current one")
  func mergeReentrant() {
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let log = Locked<[String]>([])
    first.merge(second).subscribeNext { value in
      log.append("start \(value)")
      if value == 1 { second.sendNext(2) }
      log.append("end \(value)")
    }
    first.sendNext(1)
    #expect(log.value == ["start 1", "end 1", "start 2", "end 2"])
  }

  @Test("two producer threads: every value of a merge exactly once, each source's in order, never concurrently")
  nonisolated func mergeTwoThreads() async {
    let sources = [Subject<Int, Never>(), Subject<Int, Never>()]
    let received = Locked<[Int]>([])
    let probe = OverlapProbe()
    Signal.merge(sources).subscribeNext { value in
      probe.enter()
      received.append(value)
      probe.leave()
    }
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<10_000 { sources[side].sendNext(side * 100_000 + value) }
    }
    let values = received.value
    #expect(values.count == 20_000)
    #expect(values.filter { $0 < 100_000 } == Array(0..<10_000))
    #expect(values.filter { $0 >= 100_000 } == Array(100_000..<110_000))
    #expect(probe.overlaps == 0)
  }

  // MARK: flatten

  @Test("flatten merges every inner signal and completes when the outer and every inner have (RAC's -flatten)")
  func flattenUnbounded() {
    let outer = Subject<Signal<String, TestError>, TestError>()
    let inners = [Subject<String, TestError>(), Subject<String, TestError>()]
    let recorder = EventRecorder(outer.flatten())
    outer.sendNext(inners[0])
    outer.sendNext(inners[1])
    inners[1].sendNext("b")
    inners[0].sendNext("a")
    outer.sendCompleted()
    inners[0].sendCompleted()
    #expect(!recorder.isTerminated)
    inners[1].sendCompleted()
    #expect(recorder.events == [.next("b"), .next("a"), .completed])
  }

  @Test("flatten fails with an inner's failure or the outer's, disposing everything")
  func flattenFailure() {
    let outer = Subject<Signal<Int, TestError>, TestError>()
    let inner = Subject<Int, TestError>()
    let recorder = EventRecorder(outer.flatten())
    outer.sendNext(inner)
    outer.sendError(TestError(code: 7))
    #expect(recorder.events == [.error(TestError(code: 7))])
    #expect(inner.subscriberCount == 0)

    let outerTwo = Subject<Signal<Int, TestError>, TestError>()
    let innerTwo = Subject<Int, TestError>()
    let second = EventRecorder(outerTwo.flatten())
    outerTwo.sendNext(innerTwo)
    innerTwo.sendError(TestError(code: 8))
    #expect(second.events == [.error(TestError(code: 8))])
    #expect(outerTwo.subscriberCount == 0)
  }

  @Test("flatten(maxConcurrent: 2) queues the third inner until one of the first two completes (RAC's -flatten:)")
  func flattenLimited() {
    let outer = Subject<Signal<Int, Never>, Never>()
    let inners = (0..<3).map { _ in Subject<Int, Never>() }
    let recorder = EventRecorder(outer.flatten(maxConcurrent: 2))
    for inner in inners { outer.sendNext(inner) }
    #expect(inners.map(\.subscriberCount) == [1, 1, 0])
    inners[1].sendNext(1)
    inners[1].sendCompleted()
    #expect(inners[2].subscriberCount == 1)
    inners[2].sendNext(2)
    outer.sendCompleted()
    inners[0].sendCompleted()
    inners[2].sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("flatten(maxConcurrent: 0) means no limit, as in RAC")
  func flattenZeroIsUnlimited() {
    let outer = Subject<Signal<Int, Never>, Never>()
    let inners = (0..<5).map { _ in Subject<Int, Never>() }
    _ = EventRecorder(outer.flatten(maxConcurrent: 0))
    for inner in inners { outer.sendNext(inner) }
    #expect(inners.allSatisfy { $0.subscriberCount == 1 })
  }

  @Test("disposing a flatten disposes the outer and the active inners and drops the waiting ones")
  func flattenDisposal() {
    let tracker = LifetimeTracker()
    let outer = Subject<Signal<Int, Never>, Never>()
    let active = Subject<Int, Never>()
    let recorder: EventRecorder<Int, Never> = {
      let captured = tracker.make()
      let waiting = Signal<Int, Never>.create { _ in
        _ = captured
        return nil
      }
      let recorder = EventRecorder(outer.flatten(maxConcurrent: 1))
      outer.sendNext(active)
      outer.sendNext(waiting)
      return recorder
    }()
    #expect(tracker.liveCount == 1)
    recorder.dispose()
    #expect(outer.subscriberCount == 0 && active.subscriberCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("two inner signals sending from two threads: each value once, never concurrently")
  nonisolated func flattenTwoThreads() async {
    let outer = Subject<Signal<Int, Never>, Never>()
    let inners = [Subject<Int, Never>(), Subject<Int, Never>()]
    let count = Locked(0)
    let probe = OverlapProbe()
    outer.flatten(maxConcurrent: 2).subscribeNext { _ in
      probe.enter()
      count.increment()
      probe.leave()
    }
    for inner in inners { outer.sendNext(inner) }
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<10_000 { inners[side].sendNext(value) }
    }
    #expect(count.value == 20_000)
    #expect(probe.overlaps == 0)
  }

  @Test("inners completing on other threads while others are being subscribed: every inner runs once")
  func flattenCompletionsFromThreads() {
    let outer = Subject<Signal<Int, Never>, Never>()
    let gates = (0..<2).map { _ in Subject<Int, Never>() }
    let count = Locked(0)
    let completed = Locked(false)
    outer.flatten(maxConcurrent: 2).subscribeNext({ _ in count.increment() }, completed: { completed.value = true })
    for gate in gates { outer.sendNext(gate) }
    for value in 0..<1_000 { outer.sendNext(.return(value)) }
    outer.sendCompleted()
    // A scheduler is current on each thread, so the synchronous inners are subscribed to at once (guarantee 5).
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      ImmediateScheduler.shared.performAsCurrent { gates[side].sendCompleted() }
    }
    #expect(count.value == 1_000)
    #expect(completed.value)
  }

  @Test("flatten(maxConcurrent:) with a negative limit stops with a message naming the argument")
  nonisolated func flattenNegative() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Signal<Int, Never>, Never>.never.flatten(maxConcurrent: -1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("flatten(maxConcurrent:): maxConcurrent must not be negative"))
  }

  // MARK: flattenMap(maxConcurrent:)

  @Test("flattenMap(maxConcurrent: 2) maps each value, subscribes to two signals at once and queues the third")
  func flattenMapLimited() {
    let source = Subject<Int, TestError>()
    let inners = (0..<3).map { _ in Subject<Int, TestError>() }
    let mapped = Locked<[Int]>([])
    let recorder = EventRecorder(
      source.flattenMap(maxConcurrent: 2) { index in
        mapped.append(index)
        return inners[index]
      })
    for index in 0..<3 { source.sendNext(index) }
    #expect(mapped.value == [0, 1, 2])  // mapped as each value arrives
    #expect(inners.map(\.subscriberCount) == [1, 1, 0])
    inners[1].sendNext(10)
    inners[0].sendNext(0)
    inners[1].sendCompleted()
    #expect(inners[2].subscriberCount == 1)
    inners[2].sendNext(20)
    source.sendCompleted()
    inners[0].sendCompleted()
    #expect(!recorder.isTerminated)
    inners[2].sendCompleted()
    #expect(recorder.events == [.next(10), .next(0), .next(20), .completed])
  }

  @Test("flattenMap(maxConcurrent:) fails with the first failure and disposes the source and the active signals")
  func flattenMapLimitedFailure() {
    let source = Subject<Int, TestError>()
    let inners = (0..<2).map { _ in Subject<Int, TestError>() }
    let recorder = EventRecorder(source.flattenMap(maxConcurrent: 1) { inners[$0] })
    source.sendNext(0)
    source.sendNext(1)  // waits for the one place
    inners[0].sendError(TestError(code: 3))
    #expect(recorder.events == [.error(TestError(code: 3))])
    #expect(source.subscriberCount == 0 && inners.allSatisfy { $0.subscriberCount == 0 })
  }

  @Test("flattenMap(maxConcurrent: 0) stops with a message naming the operator and the argument")
  nonisolated func flattenMapLimitedZero() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.flattenMap(maxConcurrent: 0) { Signal<Int, Never>.return($0) }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("flattenMap(maxConcurrent:_:): maxConcurrent must be positive"))
  }

  // MARK: concat

  @Test("concat of a signal of signals subscribes to one inner at a time, in order (RAC's -concat)")
  func concatSignals() {
    let outer = Subject<Signal<Int, TestError>, TestError>()
    let inners = [Subject<Int, TestError>(), Subject<Int, TestError>()]
    let recorder = EventRecorder(outer.concat())
    outer.sendNext(inners[0])
    outer.sendNext(inners[1])
    #expect(inners[1].subscriberCount == 0)
    inners[1].sendNext(99)  // not subscribed yet: lost, as in RAC
    inners[0].sendNext(1)
    inners[0].sendCompleted()
    inners[1].sendNext(2)
    outer.sendCompleted()
    inners[1].sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("Signal.concat subscribes to each signal when the previous completes (RAC's +concat:)")
  func concatCollection() {
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    let recorder = EventRecorder(Signal.concat([first, second, .return(3)]))
    #expect(second.subscriberCount == 0)
    first.sendNext(1)
    first.sendCompleted()
    second.sendNext(2)
    second.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .next(3), .completed])
    #expect(EventRecorder(Signal<Int, TestError>.concat([])).events == [.completed])
  }

  @Test("Signal.concat stops at the first failure without subscribing to the rest")
  func concatFailure() {
    let later = Subject<Int, TestError>()
    let recorder = EventRecorder(Signal.concat([.values([1]), .error(TestError(code: 2)), later]))
    #expect(recorder.events == [.next(1), .error(TestError(code: 2))])
    #expect(later.subscriberCount == 0)
  }

  @Test("guarantee 7: Signal.concat of 100 000 synchronous signals runs in constant stack depth")
  nonisolated func concatConstantStack() async {
    let count = Locked(0)
    let completed = Locked(false)
    Signal.concat((0..<100_000).map { Signal<Int, Never>.return($0) })
      .subscribeNext({ _ in count.increment() }, completed: { completed.value = true })
    #expect(count.value == 100_000)
    #expect(completed.value)
  }

  @Test("guarantee 7: flatten(maxConcurrent: 1) of 100 000 queued synchronous inners runs in constant stack depth")
  nonisolated func flattenConstantStack() async {
    let gate = Subject<Int, Never>()
    let outer = Signal<Signal<Int, Never>, Never>.create { subscriber in
      subscriber.sendNext(gate)  // holds the one place, so all the others queue up
      for value in 0..<100_000 { subscriber.sendNext(.return(value)) }
      subscriber.sendCompleted()
      return nil
    }
    let count = Locked(0)
    let completed = Locked(false)
    outer.flatten(maxConcurrent: 1).subscribeNext({ _ in count.increment() }, completed: { completed.value = true })
    #expect(count.value == 0)
    gate.sendCompleted()  // each inner completes while it is subscribed to: trampolined, not nested
    #expect(count.value == 100_000)
    #expect(completed.value)
  }

  @Test("guarantee 7: concat of a signal sending 100 000 synchronous inners runs in constant stack depth")
  nonisolated func concatSignalsConstantStack() async {
    let outer = Signal<Signal<Int, Never>, Never>.create { subscriber in
      for value in 0..<100_000 { subscriber.sendNext(.return(value)) }
      subscriber.sendCompleted()
      return nil
    }
    let count = Locked(0)
    outer.concat().subscribeNext { _ in count.increment() }
    #expect(count.value == 100_000)
  }

  // MARK: then

  @Test("then ignores the values and subscribes to the block's signal after completion (RAC's -then:)")
  func then() {
    let source = Subject<Int, TestError>()
    let calls = Locked(0)
    let recorder = EventRecorder(
      source.then {
        calls.increment()
        return Signal<String, TestError>.values(["done"])
      })
    source.sendNext(1)
    #expect(calls.value == 0)
    source.sendCompleted()
    #expect(calls.value == 1)
    #expect(recorder.events == [.next("done"), .completed])
  }

  @Test("then forwards a failure without calling the block")
  func thenFailure() {
    let calls = Locked(0)
    let recorder = EventRecorder(
      Signal<Int, TestError>.error(TestError(code: 5)).then {
        calls.increment()
        return Signal<Int, TestError>.empty
      })
    #expect(recorder.events == [.error(TestError(code: 5))])
    #expect(calls.value == 0)
  }

  @Test("disposing then disposes the live subscription")
  func thenDisposal() {
    let source = Subject<Int, Never>()
    let next = Subject<Int, Never>()
    let recorder = EventRecorder(source.then { next })
    recorder.dispose()
    #expect(source.subscriberCount == 0)
    let second = EventRecorder(source.then { next })
    source.sendCompleted()
    #expect(next.subscriberCount == 1)
    second.dispose()
    #expect(next.subscriberCount == 0)
  }
}
