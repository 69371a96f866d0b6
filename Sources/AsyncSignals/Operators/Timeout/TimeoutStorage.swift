/// Owns `timeout`'s lock and performs every effect with the lock released: the timer, the failure's factory,
/// delivery and disposal.
@usableFromInline
final class TimeoutStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<TimeoutStateMachine<Value, Failure>>  // guards all mutable state of the operator

  @inlinable
  init(observer: Observer<Value, Failure>) {
    self.state = LockedState(TimeoutStateMachine(observer))
  }

  /// Starts the timer, then subscribes to the source, as RAC does.
  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, interval: Duration, scheduler: any Scheduler,
    makeError: @escaping @Sendable () -> Failure, observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = TimeoutStorage(observer: observer)
    // The failure's factory lives in the timer's block, released when the timer runs or is cancelled
    // (guarantee 8).
    let timer = scheduler.schedule(afterDelay: interval) { storage.timedOut(makeError) }
    storage.state.handle { $0.startedTimer(timer) }
    let subscription = source.attach { event in storage.receivedFromSource(event) }
    storage.state.handle { $0.attachedSource(subscription) }
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }

  @inlinable
  func receivedFromSource(_ event: Event<Value, Failure>) -> Flow {
    switch event {
    case .next(let value): state.update { $0.receivedValue(value) }
    case .error, .completed: state.handle { $0.sourceTerminated(event) }
    }
  }

  @inlinable
  func timedOut(_ makeError: () -> Failure) {
    // The factory is the caller's code: it runs before the lock is taken, and only if the failure may still
    // be sent.
    guard !state.isClosed else { return }
    let error = makeError()
    state.handle { $0.timedOut(error) }
  }
}
