/// One subscription of `doDisposed(_:)`: the disposable it returns, and what decides whether its action runs.
///
/// The subscription ends exactly one of three ways, and the first one recorded under the lock wins: a terminal
/// event passes (the action is dropped unrun), the downstream answers `.stop` (the action runs; the sender then
/// disposes the source), or the disposable is disposed (the action runs, then the source is disposed). A terminal
/// event that loses to a disposal is not forwarded, so `doDisposed(a).finally(b)` runs exactly one of `a` and `b`.
/// Whichever wins also forgets the action and the source subscription, so that nothing the subscription captured
/// outlives it (guarantee 8); the action is called, and released, with the lock released.
@usableFromInline
final class DisposalHook: Disposable {
  @usableFromInline
  struct State: Sendable {
    /// The action, until the subscription ends.
    @usableFromInline var action: (@Sendable () -> Void)?
    /// The source subscription, once `attach` has returned and while the subscription is live.
    @usableFromInline var source: (any Disposable)?
    /// Whether the subscription has ended, by any of the three ways.
    @usableFromInline var ended = false

    @inlinable
    init(action: @escaping @Sendable () -> Void) {
      self.action = action
    }

    /// Ends the subscription, unless it has already ended: returns what it held.
    @inlinable
    mutating func end() -> (action: (@Sendable () -> Void)?, source: (any Disposable)?) {
      guard !ended else { return (nil, nil) }
      ended = true
      defer {
        action = nil
        source = nil
      }
      return (action, source)
    }
  }

  @usableFromInline
  let state: LockedState<State>  // guards the action, the source subscription and `ended`

  @inlinable
  init(action: @escaping @Sendable () -> Void) {
    state = LockedState(State(action: action))
  }

  /// Keeps the source subscription that `attach` returned, unless the subscription has already ended: then it is
  /// disposed at once (a no-op after a terminal event, whose source has ended by itself).
  @inlinable
  func attachedSource(_ source: any Disposable) {
    let keep = state.withLock { state -> Bool in
      guard !state.ended else { return false }
      state.source = source
      return true
    }
    if !keep { source.dispose() }
  }

  /// A terminal event is passing through: the subscription ends without disposal, so the action never runs.
  /// Returns `false` if the subscription had already ended: a disposal won, its action has run (or is running), and
  /// the event must not be forwarded, or a `finally` downstream would run as well.
  @inlinable
  func sourceTerminated() -> Bool {
    let (action, _) = state.withLock { $0.end() }
    return action != nil  // the action is there until the subscription ends; released here, with the lock released
  }

  /// The downstream answered `.stop`: it needs nothing more, which is disposal by an operator (`take(1)`). The
  /// action runs now; the sender disposes the source when the `.stop` reaches it.
  @inlinable
  func downstreamStopped() {
    let (action, _) = state.withLock { $0.end() }
    action?()
  }

  /// Whether the subscription has ended: disposed, stopped by the downstream, or terminated (after which, as for
  /// a sink, there is nothing left to dispose).
  @usableFromInline
  var isDisposed: Bool {
    state.withLock { $0.ended }
  }

  /// Runs the action, then disposes the source, unless the subscription has already ended.
  @inlinable
  func dispose() {
    let (action, source) = state.withLock { $0.end() }
    action?()
    source?.dispose()
  }
}
