/// Owns the lock of `deliver(on:)`, `deliverOnMainThread()` and `delay`, and performs every effect with the lock
/// released: scheduling and cancelling blocks, delivery and disposal.
@usableFromInline
final class DeliverStorage<Value: Sendable, Failure: Error>: Disposable {
  /// How events travel from the source to the downstream.
  @usableFromInline
  enum Route: Sendable {
    /// Every event through `schedule(_:)` on the scheduler (`deliver(on:)`).
    case scheduler(any Scheduler)
    /// On the main queue: at once if the event arrives there with nothing waiting, otherwise through the main
    /// queue's scheduler (`deliverOnMainThread()`).
    case mainQueue
    /// Values and completion through `schedule(afterDelay:_:)`; failures at once (`delay`).
    case delay(Duration, TimerScheduler)
  }

  @usableFromInline
  let state: LockedState<DeliverStateMachine<Value, Failure>>  // guards all mutable state of the operator
  @usableFromInline
  let route: Route

  @inlinable
  init(route: Route, observer: Observer<Value, Failure>) {
    self.state = LockedState(DeliverStateMachine(observer))
    self.route = route
  }

  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, route: Route, observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = DeliverStorage(route: route, observer: observer)
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
    switch route {
    case .scheduler(let scheduler):
      return schedule(event, on: scheduler, after: nil)
    case .mainQueue:
      if CurrentScheduler.isOnMainQueue {
        var handled = false
        let flow = state.handle { state in
          handled = state.deliverIfIdle(event)
          return Teardown()
        }
        if handled { return flow }
      }
      return schedule(event, on: QueueScheduler.mainQueueScheduler, after: nil)
    case .delay(let interval, let timers):
      if case .error(let error) = event {
        return state.handle { $0.failedNow(error) }
      }
      return schedule(event, on: timers.resolve(), after: interval)
    }
  }

  @inlinable
  func schedule(_ event: Event<Value, Failure>, on scheduler: any Scheduler, after delay: Duration?) -> Flow {
    guard let sequence = state.withLock({ $0.enqueue(event) }) else { return .stop }
    let deliver: @Sendable () -> Void = { self.fired(sequence) }
    let block: (any Disposable)?
    if let delay {
      block = scheduler.schedule(afterDelay: delay, deliver)
    } else {
      block = scheduler.schedule(deliver)
    }
    return state.handle { $0.scheduled(block, for: sequence) }
  }

  @inlinable
  func fired(_ sequence: UInt64) {
    state.handle { $0.fired(sequence) }
  }
}
