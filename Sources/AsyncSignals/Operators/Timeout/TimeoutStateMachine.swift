/// What `timeout` must do for each input. Pure: no locks, no callouts.
struct TimeoutStateMachine<Value: Sendable, Failure: Error>: OperatorState, Sendable {
  var outbox: Outbox<Value, Failure>
  private var source: (any Disposable)?
  private var sourceEnded = false
  private var timer: (any Disposable)?

  init(_ observer: Observer<Value, Failure>) {
    outbox = Outbox(observer)
  }

  /// The timer has been scheduled: keep it to cancel it, unless the operator has finished.
  mutating func startedTimer(_ disposable: (any Disposable)?) -> Teardown<Value, Failure> {
    guard let disposable else { return Teardown() }
    guard outbox.isClosed else {
      timer = disposable
      return Teardown()
    }
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(disposable)
    return teardown
  }

  /// Values pass through until the source terminates or the time is up.
  mutating func receivedValue(_ value: Value) {
    outbox.send(.next(value))
  }

  /// The source terminated in time: forward its terminal event and cancel the timer.
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

  mutating func attachedSource(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    guard outbox.isClosed || sourceEnded else {
      source = disposable
      return Teardown()
    }
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(disposable)
    return teardown
  }

  mutating func stop() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(source)
    teardown.dispose(timer)
    source = nil
    timer = nil
    sourceEnded = true
    teardown.observer = outbox.close()
    return teardown
  }
}
