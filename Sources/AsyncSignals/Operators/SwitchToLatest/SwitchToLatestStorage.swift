/// Performs `switchToLatest`: owns the lock, and disposes and subscribes to inner signals with it released.
@usableFromInline
final class SwitchToLatestStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<SwitchToLatestStateMachine<Value, Failure>>  // guards every decision

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    state = LockedState(SwitchToLatestStateMachine(observer))
  }

  @inlinable
  static func attach(
    outer: Signal<Signal<Value, Failure>, Failure>, observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = SwitchToLatestStorage(observer)
    let subscription = outer.attach { event in
      switch event {
      case .next(let signal): return storage.receivedInner(signal)
      case .error(let error): return storage.state.handle { $0.finish(.error(error)) }
      case .completed: return storage.state.handle { $0.outerCompleted() }
      }
    }
    storage.state.handle { $0.attachedOuter(subscription) }
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }

  /// Disposes the previous inner subscription (in `decide`, lock released), then subscribes to `signal`.
  @inlinable
  func receivedInner(_ signal: Signal<Value, Failure>) -> Flow {
    let inner = InnerSubscription()
    let (subscribe, flow) = state.decide { $0.receivedInner(inner) }
    guard subscribe else { return flow }
    let subscription = signal.attach { event in self.received(event, from: inner) }
    return state.handle { $0.attachedInner(inner, subscription) }
  }

  @inlinable
  func received(_ event: Event<Value, Failure>, from inner: InnerSubscription) -> Flow {
    switch event {
    case .next(let value): return state.update { $0.receivedValue(value, from: inner) }
    case .error(let error): return state.handle { $0.innerFailed(inner, error) }
    case .completed: return state.handle { $0.innerCompleted(inner) }
    }
  }
}
