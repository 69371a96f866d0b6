/// Owns `buffer(time:on:)`'s and `buffer(time:count:on:)`'s lock and performs every effect with the lock released:
/// scheduling and cancelling the timer, delivery and disposal.
@usableFromInline
final class BufferStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<BufferStateMachine<Value, Failure>>  // guards all mutable state of the operator
  @usableFromInline
  let interval: Duration
  @usableFromInline
  let scheduler: any Scheduler

  @inlinable
  init(interval: Duration, limit: Int, scheduler: any Scheduler, observer: Observer<[Value], Failure>) {
    self.state = LockedState(BufferStateMachine(observer, limit: limit))
    self.interval = interval
    self.scheduler = scheduler
  }

  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, interval: Duration, limit: Int, scheduler: any Scheduler,
    observer: Observer<[Value], Failure>
  ) -> any Disposable {
    let storage = BufferStorage(interval: interval, limit: limit, scheduler: scheduler, observer: observer)
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
    case .next(let value):
      let (generation, flow) = state.decide { $0.receivedValue(value) }
      guard let generation else { return flow }
      let timer = scheduler.schedule(afterDelay: interval) { self.timerFired(generation: generation) }
      return state.handle { $0.startedTimer(timer, generation: generation) }
    case .error(let error):
      return state.handle { $0.sourceFailed(error) }
    case .completed:
      return state.handle { $0.sourceCompleted() }
    }
  }

  @inlinable
  func timerFired(generation: UInt64) {
    state.update { $0.timerFired(generation: generation) }
  }
}
