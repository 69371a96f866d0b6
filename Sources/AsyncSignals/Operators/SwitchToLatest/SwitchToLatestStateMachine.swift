/// What `switchToLatest` must do for each input. Pure: no locks, no callouts.
///
/// RAC's rules: only the latest inner signal is followed; when a new one arrives, the previous one is
/// disposed and anything it still sends (from another thread, racing the switch) is dropped. The result
/// completes when the outer signal and the latest inner signal have completed, and fails with the first
/// failure of the outer signal or of the inner signal being followed.
@usableFromInline
struct SwitchToLatestStateMachine<Value: Sendable, Failure: Error>: OperatorState, Sendable {
  @usableFromInline
  typealias Output = Value

  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  var outer: (any Disposable)?
  @usableFromInline
  var outerEnded = false
  /// The latest inner subscription, while it is live: at most one member.
  @usableFromInline
  var latest = InnerSubscriptions()

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    outbox = Outbox(observer)
  }

  @inlinable
  mutating func attachedOuter(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    .keep(disposable, in: &outer, unlessEnded: isFinished || outerEnded)
  }

  /// A new inner signal arrived: it replaces the latest one, which is disposed.
  ///
  /// - Returns: The teardown, and whether the caller must subscribe to the new inner signal.
  @inlinable
  mutating func receivedInner(_ inner: InnerSubscription) -> (Teardown<Value, Failure>, Bool) {
    guard !isFinished else { return (Teardown(), false) }
    var teardown = Teardown<Value, Failure>()
    latest.removeAll(into: &teardown)
    latest.insert(inner)
    return (teardown, true)
  }

  @inlinable
  mutating func attachedInner(_ inner: InnerSubscription, _ disposable: any Disposable) -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    if !latest.attached(inner, disposable) { teardown.dispose(disposable) }
    return teardown
  }

  @inlinable
  mutating func receivedValue(_ value: Value, from inner: InnerSubscription) {
    guard latest.contains(inner) else { return }
    outbox.send(.next(value))
  }

  @inlinable
  mutating func innerFailed(_ inner: InnerSubscription, _ error: Failure) -> Teardown<Value, Failure> {
    guard latest.contains(inner) else { return Teardown() }
    return finish(.error(error))
  }

  @inlinable
  mutating func innerCompleted(_ inner: InnerSubscription) -> Teardown<Value, Failure> {
    guard latest.contains(inner) else { return Teardown() }
    latest.remove(inner)
    return outerEnded ? finish(.completed) : Teardown()
  }

  @inlinable
  mutating func outerCompleted() -> Teardown<Value, Failure> {
    outerEnded = true
    outer = nil
    return latest.isEmpty ? finish(.completed) : Teardown()
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(outer)
    outer = nil
    outerEnded = true
    latest.removeAll(into: &teardown)
    return teardown
  }
}
