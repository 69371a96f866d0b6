/// Every event of one subscription, with the virtual time at which it arrived: what ``TestScheduler/record(_:)``
/// returns.
///
/// The recorder subscribes when it is made and records each event as it arrives, with the clock of the test scheduler
/// that made it (``Recorded/time``). ``events`` is the whole history so far, to compare with what you expect in one
/// `#expect`:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let reply = Subject<String, Never>()
/// let replies = scheduler.record(reply.timeout(.seconds(5), on: scheduler))
/// scheduler.advance(by: .seconds(2))
/// reply.sendNext("pong")
/// scheduler.advance(by: .seconds(3))
/// #expect(replies.events == [.next(.seconds(2), "pong"), .error(.seconds(5), TimeoutError())])
/// ```
///
/// Events may arrive on any thread; the recorder keeps them in the order they were delivered (one at a time:
/// guarantee 1). The subscription ends when the signal terminates, or when the recorder is disposed; dropping the
/// recorder does not dispose it, as dropping a disposable never does. Disposing it ends the subscription, and the
/// events recorded so far stay.
///
/// - Note: No ReactiveCocoa 2.5 counterpart. RxTest's `TestableObserver` (`scheduler.createObserver(_:)`, then
///   `subscribe`), whose `events` this is; here the recorder subscribes itself, and its times are `Duration`s.
public final class TestRecorder<Value: Sendable, Failure: Error>: Disposable, Sendable, CustomStringConvertible {
  /// What was recorded, in order, and the subscription.
  private struct State: Sendable {
    var events: [Recorded<Value, Failure>] = []
    var subscription: (any Disposable)?
    var isDisposed = false
  }

  private let state = LockedState(State())  // guards the events recorded and the subscription

  init(_ signal: Signal<Value, Failure>, on scheduler: TestScheduler) {
    let state = self.state
    let record: @Sendable (Event<Value, Failure>) -> Void = { event in
      let time = Duration.nanoseconds(scheduler.nowNanoseconds)
      state.withLock { $0.events.append(Recorded(time: time, event: event)) }
    }
    let subscription = signal.subscribeNext(
      { record(.next($0)) }, error: { record(.error($0)) }, completed: { record(.completed) })
    let disposeNow = state.withLock { state -> Bool in
      state.subscription = subscription
      return state.isDisposed  // disposed from one of the callbacks, before `subscribeNext` returned
    }
    if disposeNow { subscription.dispose() }
  }

  /// Every event recorded so far, in the order it arrived, each with its virtual time.
  ///
  /// ```swift
  /// #expect(recorder.events == [.next(.zero, 1), .next(.seconds(1), 2), .completed(.seconds(1))])
  /// ```
  public var events: [Recorded<Value, Failure>] {
    state.withLock { $0.events }
  }

  /// The values recorded so far, in order, without their times.
  ///
  /// ```swift
  /// #expect(recorder.values == [1, 2])
  /// ```
  public var values: [Value] {
    events.compactMap(\.event.value)
  }

  /// Whether ``dispose()`` has been called.
  ///
  /// ```swift
  /// recorder.dispose()
  /// print(recorder.isDisposed)  // true
  /// ```
  public var isDisposed: Bool {
    state.withLock { $0.isDisposed }
  }

  /// Ends the subscription, if it has not ended; the events recorded so far stay.
  ///
  /// ```swift
  /// recorder.dispose()
  /// #expect(subject.subscriberCount == 0)
  /// ```
  public func dispose() {
    let subscription = state.withLock { state -> (any Disposable)? in
      state.isDisposed = true
      return state.subscription
    }
    subscription?.dispose()
  }

  /// The events recorded so far, as ``events`` prints them.
  ///
  /// ```swift
  /// print(recorder)  // [.next(.zero, 1), .completed(.seconds(1))]
  /// ```
  public var description: String {
    "\(events)"
  }
}

extension TestScheduler {
  /// Subscribes to `signal` now and records each of its events with the virtual time at which it arrives.
  ///
  /// The subscription is made at once, as `subscribeNext(_:error:completed:)` makes it (on the main actor, in a task or
  /// in a scheduler's block, a signal's subscribe body runs before `record` returns: guarantee 5). Each event is
  /// recorded with how far this scheduler's clock had moved from its start when it arrived; compare
  /// ``TestRecorder/events`` with the history you expect, built with ``Recorded/next(_:_:)``,
  /// ``Recorded/error(_:_:)`` and ``Recorded/completed(_:)``:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let taps = Subject<Int, Never>()
  /// let recorder = scheduler.record(taps.throttleFirst(.seconds(1), on: scheduler))
  /// taps.sendNext(1)
  /// scheduler.advance(by: .milliseconds(500))
  /// taps.sendNext(2)  // within a second of 1: dropped
  /// scheduler.advance(by: .milliseconds(500))
  /// taps.sendNext(3)
  /// #expect(recorder.events == [.next(.zero, 1), .next(.seconds(1), 3)])
  /// ```
  ///
  /// - Parameter signal: The signal to record.
  /// - Returns: The recorder, subscribed; dispose it to end the subscription before the signal ends.
  /// - Note: No ReactiveCocoa 2.5 counterpart. RxTest's `TestScheduler.createObserver(_:)` and the subscription that
  ///   follows it, in one call.
  public func record<Value: Sendable, Failure: Error>(
    _ signal: Signal<Value, Failure>
  ) -> TestRecorder<Value, Failure> {
    TestRecorder(signal, on: self)
  }
}
