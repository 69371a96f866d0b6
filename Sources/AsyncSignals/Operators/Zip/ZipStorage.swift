/// Owns `zip`'s lock and performs every effect with the lock released.
@usableFromInline
final class ZipStorage<Left: Sendable, Right: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<ZipStateMachine<Left, Right, Failure>>  // guards all mutable state of the operator

  @inlinable
  init(_ observer: Observer<(Left, Right), Failure>) {
    state = LockedState(ZipStateMachine(observer))
  }

  @inlinable
  static func attach(
    _ left: Signal<Left, Failure>, _ right: Signal<Right, Failure>,
    _ observer: Observer<(Left, Right), Failure>
  ) -> any Disposable {
    let storage = ZipStorage(observer)
    // Raw observers capturing the storage: one closure call per event and one context per side, where
    // `attach { event in … }` wraps a typed closure in a raw one.
    let leftSubscription = left.attach(Observer(raw: { kind, payload in
      switch Event<Left, Failure>(kind, payload) {
      case .next(let value): storage.state.handle { $0.receivedLeft(value) }
      case .error(let error): storage.state.handle { $0.finish(.error(error)) }
      case .completed: storage.state.handle { $0.leftCompletedUpstream() }
      }
    }))
    storage.state.handle { $0.attachedLeft(leftSubscription) }
    let rightSubscription = right.attach(Observer(raw: { kind, payload in
      switch Event<Right, Failure>(kind, payload) {
      case .next(let value): storage.state.handle { $0.receivedRight(value) }
      case .error(let error): storage.state.handle { $0.finish(.error(error)) }
      case .completed: storage.state.handle { $0.rightCompletedUpstream() }
      }
    }))
    storage.state.handle { $0.attachedRight(rightSubscription) }
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }
}
