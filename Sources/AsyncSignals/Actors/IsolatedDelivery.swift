import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Delivery of a subscription's events into an actor's isolation.
//
// One engine serves every API that calls back on an actor: `subscribeNext(isolatedTo:…)`, `bind(isolatedTo:_:)`,
// `subscribeNext(onMainActor:…)` (in the Interop module) and `bind(onMainActorTo:keyPath:)`.
//
// - Events from upstream (called serially, guarantee 1) are appended to one queue under the engine's lock. The
//   first event that finds the engine idle schedules ONE job on the actor's executor; that job drains the queue,
//   in order, taking everything queued in one swap per pass. No `Task` per event: a burst costs one job.
//   Where the job is a `Task` (an actor whose executor the library cannot identify), it yields once before going
//   idle, so that a producer in the middle of a burst appends to it rather than paying for a new `Task`.
// - A job is fair to the actor's other work: it runs at most `isolatedDeliveryBudget` callbacks, then lets the
//   actor's other work run before it continues. On a Dispatch queue (the main queue, a `QueueScheduler`) it
//   enqueues its continuation behind whatever was queued meanwhile; as a `Task` it yields. Events it took but did
//   not deliver are `carried` to the continuation, ahead of the queue, so order is kept; until then the phase
//   stays `.scheduled`, so no sender delivers at once ahead of them. The at-once path counts against the same
//   budget. An actor method awaited during a flood thus waits for at most one budget of this subscription's
//   callbacks (on a `Task`, at the job's priority or higher: a yield lets in only work of equal or higher priority).
// - A job made as a `Task` runs at the base priority of the task that subscribed (`.medium` outside any task),
//   not at the priority of whichever sender happened to start the burst. Dispatch blocks keep Dispatch's QoS
//   rules; their order is first in, first out whatever the priority.
// - In the `.atOnceOnExecutor` mode, an event sent by code already running on the actor's executor (as far as
//   `ActorExecutor` can tell) is delivered before `sendNext` returns, through `assumeIsolated`, but only when
//   nothing is queued and no delivery is in progress: it never overtakes an earlier event. The
//   `.alwaysAsynchronous` mode (RAC's `-deliverOn:`) always queues.
// - Ending (a terminal event delivered, a callback answering `.stop`, or `dispose()`) sets `isEnded` first and
//   then takes the callbacks, the actor and the queue out under the lock. A drain checks `isEnded` before every
//   event, so once `dispose()` has returned on the actor, no callback runs again.
// - A `bufferingPolicy` bounds the events waiting for the actor (`DeliveryBound`, which has the rules): `.bounded(n)`
//   carries a demand upstream and pauses the sources that can pause; the dropping policies drop from the queue.
//   Without one, the queue is unbounded, as RAC's `-deliverOn:` is.
// - The engine holds the actor strongly until the subscription ends (`.strong`), as a closure capturing it would,
//   or weakly (`.weak`, for bindings, which end when the actor goes away: at once when it provides a `Lifetime`,
//   which the engine joins until it ends, otherwise when an event finds it gone).

/// Delivers one subscription's events in an actor's isolation (see the comment at the top of this file).
@usableFromInline
final class IsolatedDelivery<A: Actor, Value: Sendable, Failure: Error>: Disposable, @unchecked Sendable {
  // guarded by: `state` (its lock) for everything mutable, `bound`'s own variables included, and `ended`, an atomic;
  // `executor`, `mode`, `priority`, `bound` (whose counts are atomics) and `lifetime` are `let`s (`lifetime` a weak
  // one, which the runtime reads atomically).
  @usableFromInline
  typealias State = IsolatedDeliveryState<A, Value, Failure>

  @usableFromInline
  let state: LockedState<State>
  @usableFromInline
  let ended = Atomic<Bool>(false)
  @usableFromInline
  let executor: ActorExecutor
  @usableFromInline
  let mode: IsolatedDeliveryMode
  /// The priority of a job made as a `Task`: the subscribing task's base priority, `.medium` outside any task.
  @usableFromInline
  let priority: TaskPriority
  /// The lifetime that ends this delivery when its owner goes away; left when the delivery ends first.
  @usableFromInline
  weak let lifetime: Lifetime?
  /// How many events may wait for the actor, and what happens past that (`DeliveryBound`); `nil`: unbounded.
  @usableFromInline
  let bound: DeliveryBound?

  @inlinable
  init(
    reference: ActorReference<A>, executor: ActorExecutor, mode: IsolatedDeliveryMode,
    endingWith lifetime: Lifetime? = nil, bound: DeliveryBound? = nil, handler: @escaping State.IsolatedHandler
  ) {
    // Erased once here rather than per event: a cast per call costs a thunk allocation per call.
    state = LockedState(State(reference: reference, handler: unsafeBitCast(handler, to: State.Handler.self)))
    self.executor = executor
    self.mode = mode
    priority = Task.basePriority ?? .medium  // not an escalated priority, which is transient
    self.lifetime = lifetime
    self.bound = bound
  }

  /// Subscribes `handler` to `signal`, called in `actor`'s isolation. The handler answers `.stop` to end the
  /// subscription; a terminal event ends it too. `subscribingOnActor` says that the caller runs in the actor's
  /// isolation (its `#isolation` is the actor), so that in the at-once mode what the signal sends on this thread
  /// during the subscription is delivered at once, even for an actor whose executor the library cannot identify.
  /// A `lifetime` disposes the delivery when it ends (its owner goes away); the delivery leaves it when it ends
  /// first. A `bound` limits the events waiting for the actor (`DeliveryBound`); its demand goes upstream with the
  /// observer, so that the sources that can pause do.
  @inlinable
  static func attach(
    _ signal: Signal<Value, Failure>, to reference: ActorReference<A>, executor: ActorExecutor,
    mode: IsolatedDeliveryMode, subscribingOnActor: Bool = false, endingWith lifetime: Lifetime? = nil,
    bound: DeliveryBound? = nil, handler: @escaping @Sendable (isolated A, Event<Value, Failure>) -> Flow
  ) -> IsolatedDelivery {
    let delivery = IsolatedDelivery(
      reference: reference, executor: executor, mode: mode, endingWith: lifetime, bound: bound, handler: handler)
    lifetime?.add(delivery)  // before attaching: an end during the subscription finds it there to leave
    if subscribingOnActor { delivery.state.withLock { $0.subscribingOnActor = pthread_self() } }
    let upstream = signal.attach(
      Observer(raw: { kind, payload in delivery.received(Event(kind, payload)) }, demand: bound?.demand))
    let keep = delivery.state.withLock { state -> Bool in
      state.subscribingOnActor = nil
      guard state.target != nil, !state.upstreamEnded else { return false }
      state.upstream = upstream
      return true
    }
    if !keep { upstream.dispose() }
    return delivery
  }

  @usableFromInline
  var isDisposed: Bool {
    ended.load(ordering: .acquiring)
  }

  @usableFromInline
  func dispose() {
    end()
  }

  // MARK: From upstream

  @usableFromInline
  enum Arrival {
    case stop
    case queued
    case schedule(A)
    case deliverNow(A, State.Handler)
  }

  @inlinable
  func received(_ event: Event<Value, Failure>) -> Flow {
    let onExecutor = mode == .atOnceOnExecutor && executor.isCurrent
    var closing: UInt64 = 0
    let arrival = state.withLock { state -> Arrival in
      guard let target = state.target, !state.upstreamEnded else { return .stop }
      guard let actor = target.reference.actor else { return .stop }  // a weakly held actor has gone
      if event.isTerminating { state.upstreamEnded = true }
      let onExecutor =
        onExecutor
        || (mode == .atOnceOnExecutor && state.subscribingOnActor.map { pthread_equal($0, pthread_self()) != 0 } == true)
      switch state.phase {
      case .idle where onExecutor:
        state.phase = .delivering
        return .deliverNow(actor, target.handler)
      case .idle:
        closing = state.enqueue(event, bound: bound)
        state.phase = .scheduled
        return .schedule(actor)
      case .scheduled, .delivering:
        closing = state.enqueue(event, bound: bound)
        return .queued
      }
    }
    if closing != 0 { bound.unsafelyUnwrapped.demand.unsafelyUnwrapped.close(generation: closing) }
    switch arrival {
    case .stop:
      end()
      return .stop
    case .queued:
      return .proceed
    case .schedule(let actor):
      scheduleJob(on: actor)
      return .proceed
    case .deliverNow(let actor, let handler):
      // On the actor's executor: `onExecutor` was established above from Dispatch's queue-specific value, or
      // from this very thread subscribing in the actor's isolation.
      if !isDisposed, Self.call(handler, actor, event) == .stop || event.isTerminating { end() }
      if drainAssumingIsolation(actor, delivered: 1) == .budgetSpent { scheduleJob(on: actor) }
      return isDisposed ? .stop : .proceed
    }
  }

  /// Schedules a job that drains the queue on the actor: one Dispatch block where the executor is a queue the
  /// library knows, otherwise a `Task` at the subscription's priority.
  @inlinable
  func scheduleJob(on actor: A) {
    if !executor.enqueueOnKnownQueue(on: actor, { actor in self.drain(actor) }) {
      Task(priority: priority) { await self.drainLingering(actor) }
    }
  }

  /// Calls the callbacks, whose isolation `init` erased, with `actor`: only for a caller on the actor's executor.
  ///
  /// Unchecked invariant: the caller runs on `actor`'s executor — inside `drain(_:)`, whose `isolated` parameter
  /// the compiler checks, or on the path of `received(_:)` that `ActorExecutor.isCurrent` (a Dispatch
  /// queue-specific lookup, which no code can fake) or the subscribing thread established. Erasing the
  /// isolation is what `Actor.assumeIsolated` does after its runtime check; that check costs a closure
  /// allocation per call, so once per event here. Debug builds check the invariant with `preconditionIsolated`,
  /// which the tests and Stress (the `IsolatedDelivery` scenario) run: a sender off the executor stops there.
  @inlinable
  static func call(_ handler: State.Handler, _ actor: A, _ event: Event<Value, Failure>) -> Flow {
    #if DEBUG
    actor.preconditionIsolated("IsolatedDelivery: delivering off the actor's executor")
    #endif
    return handler(actor, event)
  }

  // MARK: On the actor

  /// Delivers what is queued, pass by pass, until the queue is empty, the subscription has ended, or the job has
  /// spent its budget; then it enqueues its continuation behind the actor's other work.
  @inlinable
  func drain(_ actor: isolated A) {
    if drainAssumingIsolation(actor) == .budgetSpent { scheduleJob(on: actor) }
  }

  /// `drain(_:)` for a job that a `Task` had to be made for (an actor whose executor the library cannot
  /// identify): it yields after each budget, and once the queue is empty, it yields once more before it goes idle,
  /// so that a producer in the middle of a burst appends to this job instead of paying for a new `Task` (which
  /// costs more than the yield).
  @inlinable
  func drainLingering(_ actor: isolated A) async {
    while true {
      let end = drainAssumingIsolation(actor, staysDelivering: true)
      await Task.yield()
      if end == .budgetSpent { continue }
      let idle = state.withLock { state -> Bool in
        guard state.target == nil || (state.queued.isEmpty && state.carried.isEmpty) else { return false }
        state.phase = .idle
        return true
      }
      if idle { return }
    }
  }

  /// How a drain stopped.
  @usableFromInline
  enum DrainEnd {
    /// Nothing left to deliver (or the subscription has ended); the phase is `.idle`, or `.delivering` for a
    /// caller that asked to stay delivering.
    case drained
    /// The budget is spent with events left; the phase is `.scheduled`, and the caller must schedule (or be) the
    /// continuation.
    case budgetSpent
  }

  /// What a pass takes from the state.
  @usableFromInline
  enum Take {
    case deliver(State.Handler, start: Int)
    /// The values given back reopen the demand: resume the paused sources, then take again.
    case reopen
    case drained
    case budgetSpent
  }

  /// The loop of `drain(_:)`, for a caller that runs on the actor's executor (see `call(_:_:_:)`), which has
  /// already run `delivered` callbacks of its budget. With `staysDelivering`, an empty queue leaves the phase
  /// `.delivering` for the caller to end.
  @inlinable
  func drainAssumingIsolation(_ actor: A, delivered: Int = 0, staysDelivering: Bool = false) -> DrainEnd {
    var delivered = delivered
    var batch = ContiguousArray<Event<Value, Failure>>()
    // `.bounded`: values delivered from the queue and not yet given back (`DeliveryBound`), and a reopening to apply.
    let pausing = bound?.kind == .pausing ? bound : nil
    var unaccounted = 0
    var reopening: UInt64 = 0
    while true {
      let take = state.withLock { state -> Take in
        if let pausing, unaccounted != 0 {
          reopening = state.delivered(unaccounted, bound: pausing)
          unaccounted = 0
          // Still delivering while the sources resume: one that runs where it is resumed (here, on the actor) then
          // queues what it sends for this drain, rather than finding the engine idle and delivering it in a drain
          // nested in this one.
          if reopening != 0 && state.target != nil {
            state.phase = .delivering
            return .reopen
          }
        }
        guard let target = state.target else {
          state.phase = .idle
          return .drained
        }
        let start: Int
        if !state.carried.isEmpty {
          swap(&batch, &state.carried)
          start = state.carriedStart
          state.carriedStart = 0
        } else if state.queued.isEmpty {
          if !staysDelivering { state.phase = .idle }
          return .drained
        } else if delivered >= isolatedDeliveryBudget {
          state.phase = .scheduled
          return .budgetSpent
        } else {
          swap(&batch, &state.queued)
          start = state.takeQueuedStart(bound)
        }
        state.phase = .delivering
        return .deliver(target.handler, start: start)
      }
      reopen(&reopening)
      let handler: State.Handler
      var index: Int
      switch take {
      case .deliver(let taken, let start): (handler, index) = (taken, start)
      case .reopen: continue
      case .drained: return .drained
      case .budgetSpent: return .budgetSpent
      }
      while index < batch.count {
        if delivered >= isolatedDeliveryBudget {
          // Spent: the rest of the batch goes to the continuation, ahead of anything queued meanwhile.
          let carried = state.withLock { state -> Bool in
            guard state.target != nil else { return false }
            if let pausing, unaccounted != 0 { reopening = state.delivered(unaccounted, bound: pausing) }
            swap(&state.carried, &batch)
            state.carriedStart = index
            state.trimCarried(bound: bound)
            state.phase = .scheduled
            return true
          }
          reopen(&reopening)
          return carried ? .budgetSpent : .drained
        }
        if isDisposed { return .drained }
        let event = batch[index]
        index += 1
        delivered += 1
        if Self.call(handler, actor, event) == .stop || event.isTerminating {
          end()
          return .drained
        }
        if let pausing {
          unaccounted += 1
          if unaccounted >= pausing.checkpoint {
            // Half the bound delivered: give it back now, so that the source refills while the job goes on.
            state.withLock { state in reopening = state.delivered(unaccounted, bound: pausing) }
            unaccounted = 0
            reopen(&reopening)
          }
        }
      }
      batch.removeAll(keepingCapacity: true)
    }
  }

  /// Applies a reopening of the demand decided under the lock (0: none), and resumes the paused sources here.
  @inlinable
  func reopen(_ generation: inout UInt64) {
    guard generation != 0, let demand = bound?.demand else { return }
    let resumptions = demand.reopen(generation: generation)
    generation = 0
    for resumption in resumptions { resumption() }
  }

  // MARK: Ending

  /// Ends the subscription once: no callback runs after this, and the actor, the callbacks, the queue and the
  /// source subscription are released (disposed) outside the lock.
  @inlinable
  func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let released = state.withLock { state in
      let released = (state.target, state.queued, state.carried, state.upstream)
      state.target = nil
      state.queued = []
      state.carried = []
      state.carriedStart = 0
      state.upstream = nil
      return released
    }
    released.3?.dispose()
    // Paused sources and suspended producers go on, to find the subscription ended.
    for resumption in bound?.demand?.end() ?? [] { resumption() }
    lifetime?.remove(self)
    withExtendedLifetime(released) {}
  }
}
