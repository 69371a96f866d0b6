/// Performs `sample`: owns the lock and subscribes and disposes with it released.
@usableFromInline
final class SampleStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<SampleStateMachine<Value, Failure>>  // guards every decision and the value

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    state = LockedState(SampleStateMachine(observer))
  }

  /// Subscribes to `source`, then — unless it has already ended the result — to `sampler`.
  @inlinable
  static func attach<Trigger>(
    _ source: Signal<Value, Failure>, sampler: Signal<Trigger, Failure>, observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = SampleStorage(observer)
    let sourceSubscription = source.attach { event in
      switch event {
      case .next(let value): return storage.state.update { $0.receivedValue(value) }
      case .error(let error): return storage.state.handle { $0.finish(.error(error)) }
      case .completed: return storage.state.handle { $0.finish(.completed) }
      }
    }
    guard storage.state.handle({ $0.attachedSource(sourceSubscription) }) == .proceed else { return storage }
    let samplerSubscription = sampler.attach { event in
      switch event {
      case .next: return storage.state.update { $0.receivedSample() }
      case .error(let error): return storage.state.handle { $0.finish(.error(error)) }
      case .completed: return storage.state.handle { $0.finish(.completed) }
      }
    }
    storage.state.handle { $0.attachedSampler(samplerSubscription) }
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }
}
