/// What `timeout` must do for each input. Pure: no locks, no callouts.
@usableFromInline
struct TimeoutStateMachine<Value: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sourceEnded = false
  @usableFromInline
  var timer: (any Disposable)?

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    outbox = Outbox(observer)
  }

  /// The timer has been scheduled: keep it to cancel it, unless the operator has finished.
  @inlinable
  mutating func startedTimer(_ disposable: (any Disposable)?) -> Teardown<Value, Failure> {
    guard let disposable else { return Teardown() }
    return .keep(disposable, in: &timer, unlessEnded: outbox.isClosed)
  }

  /// Values pass through until the source terminates or the time is up.
  @inlinable
  mutating func receivedValue(_ value: Value) {
    outbox.send(.next(value))
  }

  /// The source terminated in time: forward its terminal event and cancel the timer.
  @inlinable
  mutating func sourceTerminated(_ event: Event<Value, Failure>) -> Teardown<Value, Failure> {
    guard !outbox.isClosed else { return Teardown() }
    sourceEnded = true
    source = nil
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(timer)
    timer = nil
    outbox.send(event)
    return teardown
  }

  /// The time is up: fail, and dispose the source.
  @inlinable
  mutating func timedOut(_ error: Failure) -> Teardown<Value, Failure> {
    guard !outbox.isClosed else { return Teardown() }
    timer = nil
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(source)
    source = nil
    sourceEnded = true
    outbox.send(.error(error))
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(source)
    teardown.dispose(timer)
    source = nil
    timer = nil
    sourceEnded = true
    return teardown
  }
}
