/// What `buffer(time:on:)` must do for each input. Pure: no locks, no callouts.
///
/// The first value of an empty buffer starts a timer; the timer flushes the buffer. Each timer carries the
/// generation of the buffer it was started for, so a timer that fires after its buffer was already flushed
/// (by completion, racing with it) sends nothing.
@usableFromInline
struct BufferStateMachine<Value: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  var outbox: Outbox<[Value], Failure>
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sourceEnded = false
  @usableFromInline
  var values: [Value] = []
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var timer: (any Disposable)?

  @inlinable
  init(_ observer: Observer<[Value], Failure>) {
    outbox = Outbox(observer)
  }

  /// Adds a value to the buffer.
  ///
  /// - Returns: The generation to start a timer with if the value is the first of its buffer, otherwise `nil`.
  @inlinable
  mutating func receivedValue(_ value: Value) -> UInt64? {
    guard !outbox.isClosed else { return nil }
    values.append(value)
    guard values.count == 1 else { return nil }
    generation &+= 1
    return generation
  }

  /// The timer of `generation` has been scheduled: keep it to cancel it, unless it is already stale.
  @inlinable
  mutating func startedTimer(_ disposable: (any Disposable)?, generation: UInt64) -> Teardown<[Value], Failure> {
    guard let disposable else { return Teardown() }
    guard !outbox.isClosed, generation == self.generation, !values.isEmpty, timer == nil else {
      var teardown = Teardown<[Value], Failure>()
      teardown.dispose(disposable)
      return teardown
    }
    timer = disposable
    return Teardown()
  }

  /// The interval of the buffer of `generation` has passed: send it.
  @inlinable
  mutating func timerFired(generation: UInt64) {
    guard !outbox.isClosed, generation == self.generation, !values.isEmpty else { return }
    timer = nil
    outbox.send(.next(values))
    values = []
  }

  /// Completion flushes the buffer at once, then completes (RAC).
  @inlinable
  mutating func sourceCompleted() -> Teardown<[Value], Failure> {
    guard !outbox.isClosed else { return Teardown() }
    let teardown = endSource()
    if !values.isEmpty { outbox.send(.next(values)) }
    values = []
    outbox.send(.completed)
    return teardown
  }

  /// A failure is sent at once; the buffered values are dropped, as RAC drops them.
  @inlinable
  mutating func sourceFailed(_ error: Failure) -> Teardown<[Value], Failure> {
    guard !outbox.isClosed else { return Teardown() }
    let teardown = endSource()
    values = []
    outbox.send(.error(error))
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<[Value], Failure> {
    let source = self.source
    var teardown = endSource()
    teardown.dispose(source)
    values = []
    return teardown
  }

  /// Marks the source ended (forgetting its subscription) and cancels the timer.
  @inlinable
  mutating func endSource() -> Teardown<[Value], Failure> {
    sourceEnded = true
    source = nil
    var teardown = Teardown<[Value], Failure>()
    teardown.dispose(timer)
    timer = nil
    return teardown
  }
}
