/// Owns the lock of `throttleLatest` and `throttleFirst`, and performs every effect with the lock released:
/// scheduling and cancelling the windows' timers, delivery and disposal.
@usableFromInline
final class RateLimitStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<RateLimitStateMachine<Value, Failure>>  // guards all mutable state of the operator
  @usableFromInline
  let interval: Duration
  @usableFromInline
  let timers: TimerScheduler

  @inlinable
  init(interval: Duration, timers: TimerScheduler, keepsLatest: Bool, observer: Observer<Value, Failure>) {
    self.state = LockedState(RateLimitStateMachine(observer, keepsLatest: keepsLatest))
    self.interval = interval
    self.timers = timers
  }

  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, interval: Duration, timers: TimerScheduler, keepsLatest: Bool,
    observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = RateLimitStorage(interval: interval, timers: timers, keepsLatest: keepsLatest, observer: observer)
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
      // Resolved on the thread where the value arrived, as RAC's rule asks (see `TimerScheduler`).
      let scheduler = timers.resolve()
      var window: UInt64?
      let flow = state.update { window = $0.receivedValue(value) }
      guard let window else { return flow }
      return startTimer(window, on: scheduler)
    case .error(let error):
      return state.handle { $0.sourceFailed(error) }
    case .completed:
      return state.handle { $0.sourceCompleted() }
    }
  }

  /// Starts the timer that ends the window of `generation`, an interval from now.
  @inlinable
  func startTimer(_ generation: UInt64, on scheduler: any Scheduler) -> Flow {
    let timer = scheduler.schedule(afterDelay: interval) { self.timerFired(generation: generation) }
    return state.handle { $0.startedTimer(timer, generation: generation) }
  }

  @inlinable
  func timerFired(generation: UInt64) {
    var next: UInt64?
    state.handle { state in
      var teardown = Teardown<Value, Failure>()
      next = state.timerFired(generation: generation, &teardown)
      return teardown
    }
    // The next window starts where this one ended: on the scheduler running this block.
    if let next { _ = startTimer(next, on: timers.resolve()) }
  }
}
