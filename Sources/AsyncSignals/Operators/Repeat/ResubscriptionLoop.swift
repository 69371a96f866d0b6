/// Subscribes to the source again and again for one `repeat` or `retry` subscription, and forwards its
/// events. Referenced only by the live source subscription (and by the loop's stack frame), so it and the
/// downstream observer go away with the last subscription.
@usableFromInline
final class ResubscriptionLoop<Value: Sendable, Failure: Error>: Sendable {
  @usableFromInline
  let source: Signal<Value, Failure>
  @usableFromInline
  let observer: Observer<Value, Failure>
  @usableFromInline
  let storage: ResubscriptionStorage

  @inlinable
  init(
    source: Signal<Value, Failure>, observer: Observer<Value, Failure>, storage: ResubscriptionStorage
  ) {
    self.source = source
    self.observer = observer
    self.storage = storage
  }

  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, policy: ResubscriptionStateMachine.Policy,
    _ observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = ResubscriptionStorage(policy: policy)
    ResubscriptionLoop(source: source, observer: observer, storage: storage).run()
    return storage
  }

  /// The trampoline: subscribes until a subscription stays live or the result finishes.
  @inlinable
  func run() {
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

  @inlinable
  func received(_ event: Event<Value, Failure>) -> Flow {
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
