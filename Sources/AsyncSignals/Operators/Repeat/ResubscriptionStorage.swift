import Synchronization

/// Owns the lock of one `repeat` or `retry` subscription and is its disposable. Holds the live subscription
/// to the source, never the downstream observer, so that a disposable kept after the result has ended keeps
/// nothing else alive (guarantee 8).
@usableFromInline
final class ResubscriptionStorage: Disposable {
  @usableFromInline
  let state: LockedState<ResubscriptionStateMachine>  // guards every decision of the operator
  @usableFromInline
  let finished = Atomic<Bool>(false)  // mirrors `state`'s `isFinished` for the lock-free check per event

  @inlinable
  init(policy: ResubscriptionStateMachine.Policy) {
    state = LockedState(ResubscriptionStateMachine(policy: policy))
  }

  /// Whether the result has finished; read once per event.
  @usableFromInline
  var isFinished: Bool { finished.load(ordering: .acquiring) }

  @usableFromInline
  var isDisposed: Bool { isFinished }

  @inlinable
  func dispose() {
    finish()?.dispose()
  }

  /// Marks the result finished. Returns the live subscription, for the caller to dispose or drop.
  @inlinable
  func finish() -> (any Disposable)? {
    state.withLock { state in
      finished.store(true, ordering: .releasing)
      return state.finish()
    }
  }

  @inlinable
  func willAttach() -> Bool {
    state.withLock { $0.willAttach() }
  }

  @inlinable
  func didAttach(_ subscription: any Disposable) -> ResubscriptionStateMachine.AfterAttach {
    state.withLock { $0.didAttach(subscription) }
  }

  @inlinable
  func sourceTerminated(failed: Bool) -> ResubscriptionStateMachine.OnTerminal {
    let (action, released) = state.withLock { state in
      let decision = state.sourceTerminated(failed: failed)
      if state.isFinished { finished.store(true, ordering: .releasing) }
      return decision
    }
    // Released here, with the lock released: the ended subscription may free closures that call out.
    withExtendedLifetime(released) {}
    return action
  }
}
