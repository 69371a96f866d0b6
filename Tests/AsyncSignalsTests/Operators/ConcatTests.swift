import Testing

@testable import AsyncSignals

@MainActor
@Suite("concat")
struct ConcatTests {
  @Test("the second signal is subscribed only when the first completes")
  func subscribesLazily() {
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    let recorder = EventRecorder(first.concat(second))
    #expect(second.subscriberCount == 0)
    first.sendNext(1)
    first.sendCompleted()
    #expect(second.subscriberCount == 1)
    second.sendNext(2)
    second.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("a failure of the first signal ends the result without subscribing the second")
  func failureEnds() {
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    let recorder = EventRecorder(first.concat(second))
    first.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(second.subscriberCount == 0)
  }

  @Test("disposing the result disposes whichever subscription is live")
  func disposal() {
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let recorder = EventRecorder(first.concat(second))
    first.sendCompleted()
    #expect(second.subscriberCount == 1)
    recorder.dispose()
    #expect(second.subscriberCount == 0)
    second.sendNext(1)
    #expect(recorder.events.isEmpty)
  }

  // MARK: the engine behind concat(_:) and Signal.concat(_:)

  /// The address of a local variable of the caller: how deep the stack is there.
  @inline(never)
  private nonisolated static func stackDepthMarker() -> UInt {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }

  @Test("subscribing a chain of 2 000 concat(_:)s takes constant stack depth: the chain is one subscription")
  func pairwiseChainSubscribesFlat() {
    let innermost = Locked<UInt>(0)
    var chain = Signal<Int, Never>.create { _ in
      innermost.value = Self.stackDepthMarker()
      return nil
    }
    for value in 0..<2_000 { chain = chain.concat(.return(value)) }
    let top = Self.stackDepthMarker()
    let subscription = chain.subscribeNext { _ in }
    // Each level of a nested subscription takes a few hundred bytes: 2 000 levels would take several hundred KB.
    #expect(top > innermost.value && top - innermost.value < 64 * 1024)
    subscription.dispose()
  }

  @Test("a chain of concat(_:)s nests each signal's subscription in the previous one's completion, as RAC does")
  func pairwiseChainNests() {
    let log = Locked<[String]>([])
    func source(_ name: String) -> Signal<Int, Never> {
      .create { subscriber in
        log.append("subscribe \(name)")
        subscriber.sendNext(name.count)
        subscriber.sendCompleted()
        return ActionDisposable { log.append("dispose \(name)") }
      }
    }
    source("a").concat(source("bb")).concat(source("ccc"))
      .subscribeNext({ log.append("\($0)") }, completed: { log.append("completed") })
    #expect(
      log.value == [
        "subscribe a", "1", "subscribe bb", "2", "subscribe ccc", "3", "completed", "dispose ccc", "dispose bb",
        "dispose a",
      ])
  }

  @Test("Signal.concat subscribes to each signal once the previous one's subscription has returned")
  func collectionTrampolines() {
    let log = Locked<[String]>([])
    func source(_ name: String) -> Signal<Int, Never> {
      .create { subscriber in
        log.append("subscribe \(name)")
        subscriber.sendNext(name.count)
        subscriber.sendCompleted()
        return ActionDisposable { log.append("dispose \(name)") }
      }
    }
    Signal.concat([source("a"), source("bb"), source("ccc")])
      .subscribeNext({ log.append("\($0)") }, completed: { log.append("completed") })
    #expect(
      log.value == [
        "subscribe a", "1", "dispose a", "subscribe bb", "2", "dispose bb", "subscribe ccc", "3", "dispose ccc",
        "completed",
      ])
  }

  @Test("disposing a chain of concat(_:)s disposes the live signal, and the later ones are never subscribed")
  func pairwiseChainDisposal() {
    let first = SyncSource<Int, Never>([1])
    let live = Subject<Int, Never>()
    let later = SyncSource<Int, Never>([3])
    let recorder = EventRecorder(first.signal.concat(live).concat(later.signal))
    live.sendNext(2)
    #expect(live.subscriberCount == 1)
    recorder.dispose()
    #expect(live.subscriberCount == 0)
    live.sendNext(20)
    live.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2)])
    #expect(later.subscriptions.value == 0)
  }

  @Test("Signal.concat: disposal disposes the live signal, and the later ones are never subscribed")
  func collectionDisposal() {
    let first = SyncSource<Int, Never>([1])
    let live = Subject<Int, Never>()
    let later = SyncSource<Int, Never>([3])
    let recorder = EventRecorder(Signal.concat([first.signal, live, later.signal]))
    #expect(first.disposals.value == 1)
    live.sendNext(2)
    recorder.dispose()
    #expect(live.subscriberCount == 0)
    live.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2)])
    #expect(later.subscriptions.value == 0)
  }

  @Test("Signal.concat: a failure ends everything at once; the live signal is disposed, the later never subscribed")
  func collectionFailure() {
    let live = SyncSource<Int, TestError>([1], then: nil)
    let failing = Subject<Int, TestError>()
    let later = SyncSource<Int, TestError>([3])
    let signal = Signal.concat([live.signal.take(1), failing, later.signal])
    let recorder = EventRecorder(signal)
    failing.sendNext(2)
    failing.sendError(TestError(code: 7))
    #expect(recorder.events == [.next(1), .next(2), .error(TestError(code: 7))])
    #expect(failing.subscriberCount == 0)
    #expect(later.subscriptions.value == 0)
  }

  @Test("a downstream that stops (take) ends Signal.concat: the later signals are never subscribed")
  func collectionStop() {
    let first = SyncSource<Int, Never>([1, 2])
    let later = SyncSource<Int, Never>([3])
    let recorder = EventRecorder(Signal.concat([first.signal, later.signal]).take(1))
    #expect(recorder.events == [.next(1), .completed])
    #expect(first.disposals.value == 1)
    #expect(later.subscriptions.value == 0)
  }

  @Test("disposing Signal.concat from a callback of a signal it subscribed in its loop stops the loop at once")
  func collectionReentrantDisposal() {
    let gate = Subject<Int, Never>()
    let second = SyncSource<Int, Never>([2, 20])
    let later = SyncSource<Int, Never>([3])
    let values = Locked<[Int]>([])
    let subscription = Locked<(any Disposable)?>(nil)
    subscription.value = Signal.concat([gate, second.signal, later.signal]).subscribeNext { value in
      values.append(value)
      if value == 2 { subscription.value?.dispose() }
    }
    gate.sendCompleted()  // subscribes to `second` on this thread, which disposes from inside its first value
    #expect(values.value == [2])
    #expect(second.subscriptions.value == 1)
    #expect(second.disposals.value == 1)
    #expect(later.subscriptions.value == 0)
  }

  @Test("disposing a chain of concat(_:)s from a callback of a later signal stops it at once")
  func pairwiseReentrantDisposal() {
    let gate = Subject<Int, Never>()
    let second = SyncSource<Int, Never>([2, 20])
    let later = SyncSource<Int, Never>([3])
    let values = Locked<[Int]>([])
    let subscription = Locked<(any Disposable)?>(nil)
    subscription.value = gate.concat(second.signal).concat(later.signal).subscribeNext { value in
      values.append(value)
      if value == 2 { subscription.value?.dispose() }
    }
    gate.sendCompleted()
    #expect(values.value == [2])
    #expect(second.disposals.value == 1)
    #expect(later.subscriptions.value == 0)
  }

  @Test("guarantee 7: Signal.concat of 100 000 Signal.from signals runs in constant stack depth")
  nonisolated func collectionOfSequencesConstantStack() async {
    let count = Locked(0)
    let completed = Locked(false)
    Signal.concat((0..<100_000).map { Signal<Int, Never>.from([$0, $0]) })
      .subscribeNext({ _ in count.increment() }, completed: { completed.value = true })
    #expect(count.value == 200_000)
    #expect(completed.value)
  }

  @Test("guarantee 8: an ended concat releases what its subscriber captured, while its disposable is still held")
  func releasesWhenEnded() {
    let tracker = LifetimeTracker()
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let subscriptions: [any Disposable] = [
      { () -> any Disposable in
        let tracked = tracker.make()
        return Signal.concat([first, second]).subscribeNext { _ in _ = tracked }
      }(),
      { () -> any Disposable in
        let tracked = tracker.make()
        return first.concat(second).subscribeNext { _ in _ = tracked }
      }(),
    ]
    first.sendCompleted()
    #expect(tracker.liveCount == 2)
    second.sendCompleted()
    #expect(tracker.liveCount == 0)
    #expect(subscriptions.count == 2)
  }

  @Test("a concat(_:) chain inside Signal.concat keeps both orders: nested within the chain, in turn between")
  func mixedShapes() {
    let recorder = EventRecorder(
      Signal.concat([
        Signal<Int, TestError>.return(1).concat(.return(2)).concat(.return(3)), .return(4),
        Signal.concat([.return(5), .return(6)]).concat(.return(7)),
      ]))
    #expect(recorder.events == [.next(1), .next(2), .next(3), .next(4), .next(5), .next(6), .next(7), .completed])
  }
}
