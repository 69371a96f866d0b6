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

/// Subscribes to the source again and again for one `repeat` or `retry` subscription, and forwards its
/// events. Referenced only by the live source subscription (and by the loop's stack frame), so it and the
/// downstream observer go away with the last subscription.
final class ResubscriptionLoop<Value: Sendable, Failure: Error>: Sendable {
  private let source: Signal<Value, Failure>
  private let observer: Observer<Value, Failure>
  private let storage: ResubscriptionStorage

  private init(
    source: Signal<Value, Failure>, observer: @escaping Observer<Value, Failure>, storage: ResubscriptionStorage
  ) {
    self.source = source
    self.observer = observer
    self.storage = storage
  }

  static func attach(
    _ source: Signal<Value, Failure>, policy: ResubscriptionStateMachine.Policy,
    _ observer: @escaping Observer<Value, Failure>
  ) -> any Disposable {
    let storage = ResubscriptionStorage(policy: policy)
    ResubscriptionLoop(source: source, observer: observer, storage: storage).run()
    return storage
  }

  /// The trampoline: subscribes until a subscription stays live or the result finishes.
  private func run() {
    while storage.willAttach() {
      let subscription = source.attach { event in self.received(event) }
      switch storage.didAttach(subscription) {
      case .keep: return
      case .subscribeAgain: continue
      case .dispose:
        subscription.dispose()
        return
      }
    }
  }

  private func received(_ event: Event<Value, Failure>) -> Flow {
    guard !storage.isFinished else { return .stop }
    let failed: Bool
    switch event {
    case .next:
      let flow = observer(event)
      if flow == .stop {
        // The subscription in progress disposes itself on `.stop`; released here, outside the lock.
        withExtendedLifetime(storage.finish()) {}
      }
      return flow
    case .error: failed = true
    case .completed: failed = false
    }
    switch storage.sourceTerminated(failed: failed) {
    case .subscribeAgain: run()
    case .none: break
    case .forward: _ = observer(event)
    }
    return .stop
  }
}
