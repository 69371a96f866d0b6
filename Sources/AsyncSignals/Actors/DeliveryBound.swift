import Synchronization

// A bound on the events waiting for an actor: what `subscribeNext(isolatedTo:bufferingPolicy:…)`, the main-actor
// forms and the bounded bindings add to the isolated-delivery engine.
//
// The engine queues each event under its lock and one job drains the queue on the actor (IsolatedDelivery.swift).
// A bound counts the values waiting there:
// - `.bounded(n)` counts every value from its arrival until its callback has run — queued, carried over a spent
//   budget, or taken by the running job and not yet delivered — so that no more than `n` values wait for the actor
//   while the sources can pause. The value that brings the count to `n` closes the demand the subscription carries
//   upstream (`Demand`), on the sending thread before `sendNext` returns, so a source that can pause stops before
//   its next value. The job gives back what it delivered at checkpoints, every `n / 2` callbacks and when it goes
//   back to the queue, and reopens the demand at `n / 2`: the source refills while the actor works through the rest.
//   A sender that cannot pause is never made to wait; what it puts past `n` (and past the slack of the chain's
//   stages, as for a loop) is queued and counted in `overflowCount`.
// - The dropping policies count the values queued (and carried), not those the running job has taken: a value in
//   the job's hands is being delivered and cannot be dropped. `.bufferingNewest(n)` drops the oldest waiting value to
//   make room for the new one, `.bufferingOldest(n)` drops the new one; each drop is counted. They carry no demand:
//   the sources run unpaused, as for a loop with the same policy.
// Changes of the demand are numbered under the engine's lock and applied after it is released (a later change wins,
// as `Demand.close(generation:)` says), so the engine calls nothing under its lock.

/// The bound of one isolated delivery: its policy, the demand it carries upstream (`.bounded` only), and its counts,
/// which the subscription reads from any thread.
@usableFromInline
final class DeliveryBound: @unchecked Sendable {
  // guarded by: the engine's lock (`IsolatedDelivery.state`) for `waiting`, `demandOpen`, `demandGeneration` and
  // `queuedStart`, which only the engine's state touches, under that lock; the counts are atomics, the rest `let`s.
  // Kept here rather than in the engine's state, so that an unbounded delivery's state stays as small as it was: with
  // them there, an event delivered at once on the actor's executor cost 4–6% more (B17c, B17d).
  /// `.bounded` only: the values that arrived and whose callbacks have not run yet.
  @usableFromInline var waiting = 0
  /// `.bounded` only: whether the demand is open, as last decided, and the number of that decision.
  @usableFromInline var demandOpen = true
  @usableFromInline var demandGeneration: UInt64 = 0
  /// The dropping policies: where the live events of the engine's `queued` begin (it drops from the front).
  @usableFromInline var queuedStart = 0

  @usableFromInline
  enum Kind: Sendable {
    /// `.bounded(n)`: sources that can pause pause; the rest is counted as overflow.
    case pausing
    /// `.bufferingNewest(n)`: the oldest waiting value is dropped for the new one.
    case dropsOldest
    /// `.bufferingOldest(n)`: the new value is dropped.
    case dropsNewest
  }

  @usableFromInline let kind: Kind
  @usableFromInline let limit: Int
  /// `.pausing` only: the room that the sources which can pause see.
  @usableFromInline let demand: Demand?
  /// How many callbacks the job runs before it gives back what it delivered (`.pausing`): half the bound.
  @usableFromInline let checkpoint: Int
  @usableFromInline let overflows = Atomic<Int>(0)
  @usableFromInline let drops = Atomic<Int>(0)
  @usableFromInline let highWaterMark = Atomic<Int>(0)

  /// The bound for `policy`, `nil` for `.unbounded`. `caller` names the API in the precondition message.
  @inlinable
  init?(_ policy: SignalBufferingPolicy, caller: StaticString) {
    let limit: Int
    switch policy {
    case .unbounded: return nil
    case .bounded(let n): (kind, limit) = (.pausing, n)
    case .bufferingNewest(let n): (kind, limit) = (.dropsOldest, n)
    case .bufferingOldest(let n): (kind, limit) = (.dropsNewest, n)
    }
    // A loop takes a value handed straight to it even with a limit of 0; an actor has no such hand: every value
    // waits for a job, so a limit of 0 would drop (or overflow) every value.
    precondition(limit > 0, "\(caller): bufferingPolicy's limit must be positive, got \(limit)")
    self.limit = limit
    demand = kind == .pausing ? Demand() : nil
    checkpoint = Swift.max(1, limit / 2)
  }

  /// Records `waiting` as a high-water mark if it is one; called under the engine's lock, which orders the writes.
  @inlinable
  func noteWaiting(_ waiting: Int) {
    if waiting > highWaterMark.load(ordering: .relaxed) { highWaterMark.store(waiting, ordering: .relaxed) }
  }
}

extension IsolatedDeliveryState {
  /// The values queued or carried, which a dropping policy may drop.
  @inlinable
  func droppableCount(_ bound: DeliveryBound) -> Int {
    queued.count - bound.queuedStart + carried.count - carriedStart
  }

  /// Where the live events of `queued` begin (the dropping policies drop from its front); set back to 0, since the
  /// caller takes the whole queue.
  @inlinable
  func takeQueuedStart(_ bound: DeliveryBound?) -> Int {
    guard let bound else { return 0 }
    defer { bound.queuedStart = 0 }
    return bound.queuedStart
  }

  /// Queues `event`, as `bound` allows; returns the number of a change that closes the demand (0: none), to apply
  /// once the lock is released.
  @inlinable
  mutating func enqueue(_ event: Event<Value, Failure>, bound: DeliveryBound?) -> UInt64 {
    guard let bound, case .next = event else {
      queued.append(event)
      return 0
    }
    switch bound.kind {
    case .pausing:
      bound.waiting += 1
      let waiting = bound.waiting
      queued.append(event)
      bound.noteWaiting(waiting)
      if waiting > bound.limit + bound.demand.unsafelyUnwrapped.slack { bound.overflows.add(1, ordering: .relaxed) }
      guard waiting >= bound.limit, bound.demandOpen else { return 0 }
      bound.demandOpen = false
      bound.demandGeneration += 1
      return bound.demandGeneration
    case .dropsOldest:
      if droppableCount(bound) >= bound.limit {
        dropOldest(bound)
        bound.drops.add(1, ordering: .relaxed)
      }
      queued.append(event)
      bound.noteWaiting(droppableCount(bound))
    case .dropsNewest:
      if droppableCount(bound) >= bound.limit {
        bound.drops.add(1, ordering: .relaxed)  // the phase is not idle: the waiting values have a job coming
      } else {
        queued.append(event)
        bound.noteWaiting(droppableCount(bound))
      }
    }
    return 0
  }

  /// Drops the oldest waiting value: the first carried one, else the first queued one. The queue's dropped head is
  /// released in runs (once it is as long as what is left, and at least 16), so a drop costs no shift of the queue.
  @inlinable
  mutating func dropOldest(_ bound: DeliveryBound) {
    if carriedStart < carried.count {
      carriedStart += 1
      return
    }
    bound.queuedStart += 1
    if bound.queuedStart == queued.count {
      queued.removeAll(keepingCapacity: true)
      bound.queuedStart = 0
    } else if bound.queuedStart >= 16 && bound.queuedStart * 2 >= queued.count {
      queued.removeFirst(bound.queuedStart)
      bound.queuedStart = 0
    }
  }

  /// A job spent its budget and carried the rest of its batch back: those values wait again, beside what was queued
  /// meanwhile, and a dropping bound drops what is now past its limit — the oldest for `.bufferingNewest`, the newest
  /// for `.bufferingOldest` — so that no more than `limit` wait. A terminal event waiting behind them stays last.
  @inlinable
  mutating func trimCarried(bound: DeliveryBound?) {
    guard let bound, bound.kind != .pausing else { return }
    // The terminal event, if it has arrived (the subscription would have ended had it been delivered), waits last:
    // at the end of the queue, or of the carried batch when nothing is queued. It is never dropped: set aside while
    // the values are trimmed.
    var excess = droppableCount(bound) - (upstreamEnded ? 1 : 0) - bound.limit
    guard excess > 0 else { return }
    bound.drops.add(excess, ordering: .relaxed)
    let terminalQueued = upstreamEnded && queued.count > bound.queuedStart
    let terminal = terminalQueued ? queued.removeLast() : upstreamEnded ? carried.removeLast() : nil
    if bound.kind == .dropsOldest {
      while excess > 0 {
        dropOldest(bound)
        excess -= 1
      }
    } else {
      let fromQueue = Swift.min(excess, queued.count - bound.queuedStart)  // the newest values are the queued ones
      queued.removeLast(fromQueue)
      carried.removeLast(excess - fromQueue)
    }
    if let terminal {
      if terminalQueued { queued.append(terminal) } else { carried.append(terminal) }
    }
  }

  /// The job delivered `delivered` values (`.bounded`): returns the number of a change that reopens the demand once
  /// half the bound or less is waiting (0: none), to apply once the lock is released.
  @inlinable
  mutating func delivered(_ delivered: Int, bound: DeliveryBound) -> UInt64 {
    bound.waiting -= delivered
    guard !bound.demandOpen, bound.waiting <= bound.limit / 2 else { return 0 }
    bound.demandOpen = true
    bound.demandGeneration += 1
    return bound.demandGeneration
  }
}
