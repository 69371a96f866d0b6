/// Owns `throttle`'s lock and performs every effect with the lock released: the predicate, scheduling and
/// cancelling timers, delivery and disposal.
@usableFromInline
final class ThrottleStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<ThrottleStateMachine<Value, Failure>>  // guards all mutable state of the operator
  @usableFromInline
  let interval: Duration
  @usableFromInline
  let timers: TimerScheduler

  @inlinable
  init(interval: Duration, timers: TimerScheduler, observer: Observer<Value, Failure>) {
    self.state = LockedState(ThrottleStateMachine(observer))
    self.interval = interval
    self.timers = timers
  }

  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, interval: Duration, timers: TimerScheduler,
    shouldThrottle: @escaping @Sendable (Value) -> Bool, observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = ThrottleStorage(interval: interval, timers: timers, observer: observer)
    // The predicate lives in the source's observer, which the source releases when the subscription ends
    // (guarantee 8), and is called from there, one value at a time.
    let subscription = source.attach { event in storage.receivedFromSource(event, shouldThrottle) }
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
  func receivedFromSource(_ event: Event<Value, Failure>, _ shouldThrottle: (Value) -> Bool) -> Flow {
    switch event {
    case .next(let value):
      guard shouldThrottle(value) else {
        return state.handle { $0.receivedImmediateValue(value) }
      }
      let scheduler = timers.resolve()
      var generation: UInt64?
      let flow = state.handle { state in
        var teardown = Teardown<Value, Failure>()
        generation = state.receivedThrottledValue(value, &teardown)
        return teardown
      }
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
