/// What `take(until:)` and `take(untilReplacement:)` must do for each input. Pure: no locks, no callouts.
///
/// Both forward a source until a second signal (the trigger) speaks, and both subscribe to the trigger first.
/// `take(until:)` then completes (`Mode.complete`); `take(untilReplacement:)` disposes the source and forwards
/// the replacement from then on (`Mode.replace`), and never lets the source's completion through.
@usableFromInline
struct TakeUntilStateMachine<Value: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  typealias Output = Value

  @usableFromInline
  enum Mode: Sendable {
    /// `take(until:)`: the trigger's first value or completion completes the result.
    case complete
    /// `take(untilReplacement:)`: the trigger's first event replaces the source.
    case replace
  }

  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  let mode: Mode
  @usableFromInline
  var source: (any Disposable)?
  /// The source has ended: completed (swallowed in `.replace` mode) or replaced.
  @usableFromInline
  var sourceEnded = false
  @usableFromInline
  var trigger: (any Disposable)?

  @inlinable
  init(mode: Mode, observer: Observer<Value, Failure>) {
    self.mode = mode
    outbox = Outbox(observer)
  }

  @inlinable
  mutating func attachedTrigger(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    .keep(disposable, in: &trigger, unlessEnded: isFinished)
  }

  // MARK: The source

  @inlinable
  mutating func receivedValue(_ value: Value) {
    guard !sourceEnded else { return }
    outbox.send(.next(value))
  }

  @inlinable
  mutating func sourceFailed(_ error: Failure) -> Teardown<Value, Failure> {
    guard !sourceEnded else { return Teardown() }
    return finish(.error(error))
  }

  @inlinable
  mutating func sourceCompleted() -> Teardown<Value, Failure> {
    guard !sourceEnded else { return Teardown() }
    switch mode {
    case .complete:
      return finish(.completed)
    case .replace:
      // RAC's `[self concat:[RACSignal never]]`: only the replacement ends the result.
      sourceEnded = true
      source = nil
      return Teardown()
    }
  }

  // MARK: The trigger

  /// `take(until:)`'s trigger sent a value or completed.
  @inlinable
  mutating func triggerFired() -> Teardown<Value, Failure> {
    finish(.completed)
  }

  /// `take(untilReplacement:)`'s replacement sent `event`: the source is disposed at its first event.
  @inlinable
  mutating func replacementSent(_ event: Event<Value, Failure>) -> Teardown<Value, Failure> {
    guard !isFinished else { return Teardown() }
    if event.isTerminating { return finish(event) }
    var teardown = Teardown<Value, Failure>()
    if !sourceEnded {
      sourceEnded = true
      teardown.dispose(source)
      source = nil
    }
    outbox.send(event)
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(source)
    teardown.dispose(trigger)
    source = nil
    trigger = nil
    sourceEnded = true
    return teardown
  }
}
