/// What `buffer(time:on:)` and `buffer(time:count:on:)` must do for each input. Pure: no locks, no callouts.
///
/// The first value of an empty buffer starts a timer; the timer flushes the buffer. With a count, the value that
/// fills the buffer flushes it at once and cancels its timer. Each timer carries the generation of the buffer it
/// was started for, so a timer that fires after its buffer was already flushed (by completion or by its count,
/// racing with it) sends nothing, not even into the next buffer.
@usableFromInline
struct BufferStateMachine<Value: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  var outbox: Outbox<[Value], Failure>
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sourceEnded = false
  @usableFromInline
  var buffer: BufferAccumulator<Value>
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var timer: (any Disposable)?

  /// `limit`: how many values fill a buffer, `Int.max` for `buffer(time:on:)`.
  @inlinable
  init(_ observer: Observer<[Value], Failure>, limit: Int) {
    outbox = Outbox(observer)
    buffer = BufferAccumulator(limit: limit)
  }

  /// Adds a value to the buffer; a value that fills it sends the buffer and cancels its timer.
  ///
  /// - Returns: The teardown (the cancelled timer), and the generation to start a timer with if the value is the
  ///   first of its buffer and does not fill it, otherwise `nil`.
  @inlinable
  mutating func receivedValue(_ value: Value) -> (Teardown<[Value], Failure>, UInt64?) {
    guard !outbox.isClosed else { return (Teardown(), nil) }
    if let full = buffer.append(value) {
      outbox.send(.next(full))
      var teardown = Teardown<[Value], Failure>()
      teardown.dispose(timer)
      timer = nil
      return (teardown, nil)
    }
    guard buffer.count == 1 else { return (Teardown(), nil) }
    generation &+= 1
    return (Teardown(), generation)
  }

  /// The timer of `generation` has been scheduled: keep it to cancel it, unless it is already stale.
  @inlinable
  mutating func startedTimer(_ disposable: (any Disposable)?, generation: UInt64) -> Teardown<[Value], Failure> {
    guard let disposable else { return Teardown() }
    guard !outbox.isClosed, generation == self.generation, !buffer.isEmpty, timer == nil else {
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
    guard !outbox.isClosed, generation == self.generation, let values = buffer.flush() else { return }
    timer = nil
    outbox.send(.next(values))
  }

  /// Completion flushes the buffer at once, then completes (RAC).
  @inlinable
  mutating func sourceCompleted() -> Teardown<[Value], Failure> {
    guard !outbox.isClosed else { return Teardown() }
    let teardown = endSource()
    if let values = buffer.flush() { outbox.send(.next(values)) }
    outbox.send(.completed)
    return teardown
  }

  /// A failure is sent at once; the buffered values are dropped, as RAC drops them.
  @inlinable
  mutating func sourceFailed(_ error: Failure) -> Teardown<[Value], Failure> {
    guard !outbox.isClosed else { return Teardown() }
    let teardown = endSource()
    buffer.removeAll()
    outbox.send(.error(error))
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<[Value], Failure> {
    let source = self.source
    var teardown = endSource()
    teardown.dispose(source)
    buffer.removeAll()
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
