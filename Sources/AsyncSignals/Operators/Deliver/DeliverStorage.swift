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

    /// Whether the route carries a bounded consumer's pause: the hops do; `delay` ends it (its values wait for
    /// their time whatever the consumer's room).
    @inlinable
    var carriesThePause: Bool {
      if case .delay = self { return false }
      return true
    }
  }

  @usableFromInline
  let state: LockedState<DeliverStateMachine<Value, Failure>>  // guards all mutable state of the operator
  @usableFromInline
  let route: Route
  /// Under a bounded consumer, a hop on a scheduler (`deliver(on:)`, `deliverOnMainThread()`) carries the pause:
  /// its source's demand is this stage, which has room while the consumer has room and fewer than `hopCapacity`
  /// values wait in the hop (flow control, part 2). `nil` on the unbounded path, and for `delay`.
  @usableFromInline
  let stage: Demand?

  /// The values a hop holds, at most, for a source that can pause: the bound through a hop is the consumer's `n`
  /// plus this. Full, the hop stops asking upstream; it reopens at half, so that a source paused by a slow
  /// scheduler resumes for a burst, not for one value at a time. (Its block delivers every value held when it
  /// runs, so a full hop reopens once that block has run: `scheduleInBurst(_:on:)`.)
  @usableFromInline
  static var hopCapacity: Int { 32 }

  @inlinable
  init(route: Route, observer: Observer<Value, Failure>) {
    self.state = LockedState(DeliverStateMachine(observer))
    self.route = route
    if let consumer = observer.demand, route.carriesThePause {
      // A paused source resumes off the thread that made room — the hop's scheduler, the main queue behind
      // `deliverOnMainThread()`: its resumption runs on the background scheduler, and queues the source on its own
      // scheduler from there (see `Demand.Registration` for why not from this thread). A task waiting for room is
      // resumed at once.
      stage = Demand(
        parent: consumer, limit: Self.hopCapacity, reopenAt: Self.hopCapacity / 2,
        resumeOn: { work in _ = QueueScheduler.background.schedule(work) })
      // What the hop holds may go past the consumer's bound though the source paused: not overflow.
      consumer.addSlack(Self.hopCapacity)
    } else {
      stage = nil
    }
  }

  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, route: Route, observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = DeliverStorage(route: route, observer: observer)
    let subscription: any Disposable
    if let stage = storage.stage {
      subscription = source.attach(Observer({ event in storage.receivedFromSource(event) }, demand: stage))
    } else {
      subscription = source.attach { event in storage.receivedFromSource(event) }
    }
    storage.state.handle { $0.attachedSource(subscription) }
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
    // Producers waiting for the hop's room are released: their subscription has ended. The first disposal gives the
    // hop's slack back.
    if let stage, let resumptions = stage.endOnce() {
      stage.addSlack(-Self.hopCapacity)
      for resumption in resumptions { resumption() }
    }
  }

  @inlinable
  func receivedFromSource(_ event: Event<Value, Failure>) -> Flow {
    switch route {
    case .scheduler(let scheduler):
      if stage != nil { return scheduleInBurst(event, on: scheduler) }
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
      if stage != nil { return scheduleInBurst(event, on: QueueScheduler.mainQueueScheduler) }
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
    // The hop holds the value until its block delivers it. Never held back: the block is scheduled regardless;
    // only the source is asked to pause (a source that cannot keeps sending, and the consumer counts the excess).
    if let stage, case .next = event { stage.take() }
    let deliver: @Sendable () -> Void = { self.fired(sequence) }
    let block: (any Disposable)?
    if let delay {
      block = scheduler.schedule(afterDelay: delay, deliver)
    } else {
      block = scheduler.schedule(deliver)
    }
    return state.handle { $0.scheduled(block, for: sequence) }
  }

  /// A bounded hop's events: one block at a time takes every event queued before it runs, so that a source that
  /// keeps ahead of the hop's scheduler wakes it once per burst rather than once per value. (Each wake-up of an idle
  /// Dispatch queue is a request for a worker thread; on Linux a burst of them starts new threads, whose malloc
  /// arenas each keep their own peak: the hop shape of Benchmarks' FlowMemory ran on some 50 threads.) The unbounded
  /// path keeps one block per event, as RAC's `deliverOn:` schedules one per event.
  @inlinable
  func scheduleInBurst(_ event: Event<Value, Failure>, on scheduler: any Scheduler) -> Flow {
    // The value's room is taken before the value is queued: a block already scheduled may deliver it, and give
    // its room back, as soon as it is queued.
    let holds = stage != nil && !event.isTerminating
    if holds { stage?.take() }
    guard let (sequence, needsBlock) = state.withLock({ $0.enqueueInBurst(event) }) else {
      if holds { stage?.release() }  // the hop has finished: it holds nothing
      return .stop
    }
    guard needsBlock else { return .proceed }
    let block = scheduler.schedule { self.firedBurst(sequence) }
    return state.handle { $0.scheduled(block, for: sequence) }
  }

  @inlinable
  func firedBurst(_ sequence: UInt64) {
    var values = 0
    state.handle { $0.firedBurst(sequence, values: &values) }
    if let stage, values > 0 { stage.release(values) }
  }

  @inlinable
  func fired(_ sequence: UInt64) {
    var values = 0
    state.handle { $0.fired(sequence, values: &values) }
    // Delivered (or dropped, the subscription over): their room in the hop is free again.
    if let stage, values > 0 { stage.release(values) }
  }
}
