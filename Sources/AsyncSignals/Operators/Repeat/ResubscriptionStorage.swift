import Synchronization

/// Owns the lock of one `repeat` or `retry` subscription and is its disposable. Holds the live subscription
/// to the source, never the downstream observer, so that a disposable kept after the result has ended keeps
/// nothing else alive (guarantee 8).
final class ResubscriptionStorage: Disposable {
  private let state: LockedState<ResubscriptionStateMachine>  // guards every decision of the operator
  private let finished = Atomic<Bool>(false)  // mirrors `state`'s `isFinished` for the lock-free check per event

  init(policy: ResubscriptionStateMachine.Policy) {
    state = LockedState(ResubscriptionStateMachine(policy: policy))
  }

  /// Whether the result has finished; read once per event.
  var isFinished: Bool { finished.load(ordering: .acquiring) }

  var isDisposed: Bool { isFinished }

  func dispose() {
    finish()?.dispose()
  }

  /// Marks the result finished. Returns the live subscription, for the caller to dispose or drop.
  func finish() -> (any Disposable)? {
    state.withLock { state in
      finished.store(true, ordering: .releasing)
      return state.finish()
    }
  }

  func willAttach() -> Bool {
    state.withLock { $0.willAttach() }
  }

  func didAttach(_ subscription: any Disposable) -> ResubscriptionStateMachine.AfterAttach {
    state.withLock { $0.didAttach(subscription) }
  }

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
