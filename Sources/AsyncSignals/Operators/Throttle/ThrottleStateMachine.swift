/// What `throttle` must do for each input. Pure: no locks, no callouts.
///
/// At most one value is pending, with one timer. Every value cancels the pending one; a throttled value becomes
/// the new pending one and its timer is started, an unthrottled one is sent at once. Each timer carries the
/// generation of the value it was started for, so a timer that fires after its value was replaced (the
/// cancellation raced with it) sends nothing.
@usableFromInline
struct ThrottleStateMachine<Value: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sourceEnded = false
  @usableFromInline
  var pending: Value?
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var timer: (any Disposable)?

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    outbox = Outbox(observer)
  }

  /// A value that is not throttled: the pending value is dropped and this one is sent at once.
  @inlinable
  mutating func receivedImmediateValue(_ value: Value) -> Teardown<Value, Failure> {
    guard !outbox.isClosed else { return Teardown() }
    let teardown = dropPending()
    outbox.send(.next(value))
    return teardown
  }

  /// A throttled value replaces the pending one.
  ///
  /// - Returns: The generation to start its timer with, or `nil` if the operator has finished.
  @inlinable
  mutating func receivedThrottledValue(_ value: Value, _ teardown: inout Teardown<Value, Failure>) -> UInt64? {
    guard !outbox.isClosed else { return nil }
    teardown = dropPending()
    pending = value
    generation &+= 1
    return generation
  }

  /// The timer of `generation` has been scheduled: keep it to cancel it, unless it is already stale.
  @inlinable
  mutating func startedTimer(_ disposable: (any Disposable)?, generation: UInt64) -> Teardown<Value, Failure> {
    guard let disposable else { return Teardown() }
    guard !outbox.isClosed, generation == self.generation, pending != nil, timer == nil else {
      var teardown = Teardown<Value, Failure>()
      teardown.dispose(disposable)
      return teardown
    }
    timer = disposable
    return Teardown()
  }

  /// The interval of the value of `generation` has passed without a newer value: send it.
  @inlinable
  mutating func timerFired(generation: UInt64) {
    guard !outbox.isClosed, generation == self.generation, let value = pending.take() else { return }
    timer = nil
    outbox.send(.next(value))
  }

  /// RAC flushes the pending value on completion: it is sent at once, then the completion.
  @inlinable
  mutating func sourceCompleted() -> Teardown<Value, Failure> {
    guard !outbox.isClosed else { return Teardown() }
    sourceEnded = true
    source = nil
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(timer)
    timer = nil
    if let value = pending.take() { outbox.send(.next(value)) }
    outbox.send(.completed)
    return teardown
  }

  /// A failure is sent at once; the pending value is dropped, as RAC drops it.
  @inlinable
  mutating func sourceFailed(_ error: Failure) -> Teardown<Value, Failure> {
    guard !outbox.isClosed else { return Teardown() }
    sourceEnded = true
    source = nil
    let teardown = dropPending()
    outbox.send(.error(error))
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = dropPending()
    teardown.dispose(source)
    source = nil
    sourceEnded = true
    return teardown
  }

  @inlinable
  mutating func dropPending() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    pending = nil
    teardown.dispose(timer)
    timer = nil
    return teardown
  }
}
