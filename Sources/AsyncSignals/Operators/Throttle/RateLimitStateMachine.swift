/// What `throttleLatest` and `throttleFirst` must do for each input. Pure: no locks, no callouts.
///
/// A value that arrives while no window is open is sent at once and opens one: a timer of one interval. While it is
/// open, `throttleLatest` keeps the latest value it receives (`throttleFirst` drops them). When the timer fires, the
/// value kept, if any, is sent and opens the next window; otherwise the window closes, and the next value is sent at
/// once. So no two values are sent less than an interval apart, and the times come from the scheduler's own timers,
/// never from reading its clock: on a `TestScheduler` they are exact.
///
/// Each timer carries the generation of the window it was started for, so a timer that fires after its window was
/// given up (the cancellation raced with it) does nothing.
@usableFromInline
struct RateLimitStateMachine<Value: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sourceEnded = false
  /// Whether a value received during a window is kept for the window's end (`throttleLatest`) or dropped.
  @usableFromInline
  let keepsLatest: Bool
  /// Whether a window is open: a value was sent less than an interval ago.
  @usableFromInline
  var windowIsOpen = false
  /// The latest value received during the open window (`throttleLatest` only).
  @usableFromInline
  var pending: Value?
  /// The source completed while a value was kept: the completion follows it at the window's end.
  @usableFromInline
  var completesAfterPending = false
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var timer: (any Disposable)?

  @inlinable
  init(_ observer: Observer<Value, Failure>, keepsLatest: Bool) {
    outbox = Outbox(observer)
    self.keepsLatest = keepsLatest
  }

  /// A value from the source.
  ///
  /// - Returns: The generation of the window to start a timer for, if the value was sent and opened one.
  @inlinable
  mutating func receivedValue(_ value: Value) -> UInt64? {
    guard !outbox.isClosed, !completesAfterPending else { return nil }
    guard !windowIsOpen else {
      if keepsLatest { pending = value }
      return nil
    }
    outbox.send(.next(value))
    return openWindow()
  }

  @inlinable
  mutating func openWindow() -> UInt64 {
    windowIsOpen = true
    generation &+= 1
    return generation
  }

  /// The timer of `generation` has been scheduled: keep it to cancel it, unless its window is over already.
  @inlinable
  mutating func startedTimer(_ disposable: (any Disposable)?, generation: UInt64) -> Teardown<Value, Failure> {
    guard let disposable else { return Teardown() }
    guard !outbox.isClosed, generation == self.generation, windowIsOpen, timer == nil else {
      var teardown = Teardown<Value, Failure>()
      teardown.dispose(disposable)
      return teardown
    }
    timer = disposable
    return Teardown()
  }

  /// The window of `generation` is over.
  ///
  /// - Returns: The generation of the next window to start a timer for, if the value kept was sent and opened one.
  @inlinable
  mutating func timerFired(generation: UInt64, _ teardown: inout Teardown<Value, Failure>) -> UInt64? {
    guard !outbox.isClosed, generation == self.generation, windowIsOpen else { return nil }
    timer = nil
    guard let value = pending.take() else {
      windowIsOpen = false
      return nil
    }
    outbox.send(.next(value))
    if completesAfterPending {
      teardown = finish(.completed)
      return nil
    }
    return openWindow()
  }

  /// With a value kept, the completion waits for the window's end, to send it no sooner than an interval after the
  /// value before it (RxSwift and Combine do the same); otherwise it is sent at once.
  @inlinable
  mutating func sourceCompleted() -> Teardown<Value, Failure> {
    guard !outbox.isClosed else { return Teardown() }
    sourceEnded = true
    source = nil
    guard pending != nil else { return finish(.completed) }
    completesAfterPending = true
    return Teardown()
  }

  /// A failure is sent at once; the value kept, if any, is dropped, as `throttle` drops it.
  @inlinable
  mutating func sourceFailed(_ error: Failure) -> Teardown<Value, Failure> {
    sourceEnded = true
    source = nil
    return finish(.error(error))
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    pending = nil
    windowIsOpen = false
    teardown.dispose(timer)
    timer = nil
    teardown.dispose(source)
    source = nil
    sourceEnded = true
    return teardown
  }
}
