import AsyncSignals
import Synchronization

/// The broken twin that `--sabotage BoundedActor` swaps in (`TwinBoundedDelivery`, `.losesCarriedValue`).
enum LosingActorBound {
  static let description =
    "a bounded delivery into an actor whose job, its budget spent mid-batch, carries the rest on from one value too "
    + "far: that value is never delivered, nor given back"
}

/// The broken twin that `--sabotage BoundedActorResume` swaps in (`TwinBoundedDelivery`, `.reopensWithoutResuming`).
enum UnresumedActorBound {
  static let description =
    "a bounded delivery into an actor that reopens its demand without running the paused sources' resumptions: "
    + "a source that paused waits for good"
}

/// The broken twin that `--sabotage BoundedActorBacklog` swaps in (`TwinBoundedDelivery`, `.reopensBeforeGivingBack`).
enum EarlyReopeningActorBound {
  static let description =
    "a bounded delivery into an actor that gives back the values its job takes as it takes them, before their "
    + "callbacks have run: the sources refill while the job still holds a full bound"
}

/// A copy of the library's bounded delivery into an actor (`IsolatedDelivery` with a `DeliveryBound`, read both),
/// with one bug. The same rules otherwise: events queue under a lock and one job at a time drains them on the actor,
/// in order, at most `isolatedDeliveryBudget` callbacks per job (the rest is carried to the next job, ahead of the
/// queue); with `.bounded(n)` a value counts from its arrival until its callback has run, the value that brings the
/// count to `n` closes the demand carried upstream, and the job gives back what it delivered every `n / 2` callbacks
/// and when it goes back to the queue, reopening at `n / 2` and running the paused sources' resumptions; what goes
/// past `n` (and the chain's slack) is counted as overflow; the dropping policies drop the oldest or the newest
/// waiting value and count it, and trim a carried batch back to the limit. Simplified where the scenarios do not
/// look: every job is a `Task` on the actor (no Dispatch fast path, no delivery at once on the actor's executor), the
/// actor is held strongly.
///
/// The bugs, one per scenario:
/// - `losesCarriedValue` (`LosingActorBound`): a job that spends its budget in the middle of a batch carries the rest
///   from one past where it stopped. The value skipped is never delivered; it was counted as waiting and is never
///   given back, so the count drifts up from there (more overflow counted, a demand that reopens later).
/// - `reopensWithoutResuming` (`UnresumedActorBound`): reopening applies the demand's change, which hands back the
///   paused sources' resumptions, and drops them. A `Signal.from` walk that paused is never scheduled again; an
///   `await send` that waited is never resumed. Ending the subscription still resumes those registered since.
/// - `reopensBeforeGivingBack` (`EarlyReopeningActorBound`): the job gives back the values it takes from the queue
///   as it takes them, as if taking were delivering, and reopens there. Its own count stays within the bound (so its
///   `highWaterMark` looks right), but the sources refill while the job still has up to `n` callbacks to run.
final class TwinBoundedDelivery<A: Actor, Value: Sendable>: Subscriber, BoundedActorSubscription {
  typealias Failure = StressFailure
  typealias Handler = @Sendable (isolated A, Event<Value, StressFailure>) -> Void

  enum Bug: Sendable {
    case losesCarriedValue
    case reopensWithoutResuming
    case reopensBeforeGivingBack
  }

  enum Kind: Sendable {
    case pausing
    case dropsOldest
    case dropsNewest
  }

  enum Phase {
    case idle
    case scheduled
    case delivering
  }

  struct State {
    var queued: [Event<Value, StressFailure>] = []
    /// What a job took and did not deliver, its budget spent: delivered by the next job, before `queued`.
    var carried: ArraySlice<Event<Value, StressFailure>> = []
    var phase = Phase.idle
    var upstreamEnded = false
    var isEnded = false
    var upstream: (any Disposable)?
    /// `.bounded` only: the values that arrived and whose callbacks have not run (as the twin counts them).
    var waiting = 0
    var demandOpen = true
    var generation: UInt64 = 0
  }

  enum Take {
    case deliver(ArraySlice<Event<Value, StressFailure>>)
    case drained
    case budgetSpent
  }

  private let actor: A
  private let handler: Handler
  private let bug: Bug
  private let kind: Kind?
  private let limit: Int
  private let checkpoint: Int
  private let demand: Demand?
  private let state = LockedBox(State())
  private let ended = Atomic<Bool>(false)
  private let overflows = Atomic<Int>(0)
  private let drops = Atomic<Int>(0)
  private let mostWaiting = Atomic<Int>(0)

  private init(actor: A, policy: SignalBufferingPolicy, bug: Bug, handler: @escaping Handler) {
    self.actor = actor
    self.handler = handler
    self.bug = bug
    switch policy {
    case .unbounded: (kind, limit) = (nil, .max)
    case .bounded(let n): (kind, limit) = (.pausing, n)
    case .bufferingNewest(let n): (kind, limit) = (.dropsOldest, n)
    case .bufferingOldest(let n): (kind, limit) = (.dropsNewest, n)
    }
    demand = kind == .pausing ? Demand() : nil
    checkpoint = max(1, limit / 2)
  }

  /// Subscribes `handler`, called in `actor`'s isolation; the demand goes upstream with the subscriber.
  static func subscribe(
    _ signal: Signal<Value, StressFailure>, isolatedTo actor: A, policy: SignalBufferingPolicy, bug: Bug,
    _ handler: @escaping Handler
  ) -> TwinBoundedDelivery {
    let twin = TwinBoundedDelivery(actor: actor, policy: policy, bug: bug, handler: handler)
    signal.subscribe(twin, demand: twin.demand)  // kept through `didSubscribe(with:)`, called first
    return twin
  }

  // MARK: The figures

  var overflowCount: Int { overflows.load(ordering: .relaxed) }

  var droppedCount: Int { drops.load(ordering: .relaxed) }

  var highWaterMark: Int { mostWaiting.load(ordering: .relaxed) }

  // MARK: From upstream

  func didSubscribe(with disposable: any Disposable) {
    let kept = state.withLock { state -> Bool in
      guard !state.isEnded else { return false }
      state.upstream = disposable
      return true
    }
    if !kept { disposable.dispose() }
  }

  func sendNext(_ value: Value) { received(.next(value)) }

  func sendError(_ error: StressFailure) { received(.error(error)) }

  func sendCompleted() { received(.completed) }

  private func received(_ event: Event<Value, StressFailure>) {
    var closing: UInt64 = 0
    let schedules = state.withLock { state -> Bool in
      guard !state.isEnded, !state.upstreamEnded else { return false }
      if event.isTerminating { state.upstreamEnded = true }
      closing = enqueue(event, into: &state)
      guard state.phase == .idle else { return false }
      state.phase = .scheduled
      return true
    }
    if closing != 0 { demand?.close(generation: closing) }
    if schedules { scheduleJob() }
  }

  /// Queues `event` as the policy allows; returns the number of a change that closes the demand (0: none).
  private func enqueue(_ event: Event<Value, StressFailure>, into state: inout State) -> UInt64 {
    guard let kind, case .next = event else {
      state.queued.append(event)
      return 0
    }
    let droppable = state.queued.count + state.carried.count
    switch kind {
    case .pausing:
      state.waiting += 1
      state.queued.append(event)
      noteWaiting(state.waiting)
      if state.waiting > limit + (demand?.slack ?? 0) { overflows.add(1, ordering: .relaxed) }
      guard state.waiting >= limit, state.demandOpen else { return 0 }
      state.demandOpen = false
      state.generation += 1
      return state.generation
    case .dropsOldest:
      if droppable >= limit {
        if state.carried.isEmpty { state.queued.removeFirst() } else { state.carried.removeFirst() }
        drops.add(1, ordering: .relaxed)
      }
      state.queued.append(event)
      noteWaiting(state.queued.count + state.carried.count)
    case .dropsNewest:
      if droppable >= limit {
        drops.add(1, ordering: .relaxed)
      } else {
        state.queued.append(event)
        noteWaiting(droppable + 1)
      }
    }
    return 0
  }

  /// Under the lock, which orders the writes.
  private func noteWaiting(_ waiting: Int) {
    if waiting > mostWaiting.load(ordering: .relaxed) { mostWaiting.store(waiting, ordering: .relaxed) }
  }

  // MARK: On the actor

  private func scheduleJob() {
    Task(priority: .medium) { await self.drain(self.actor) }
  }

  private func drain(_ actor: isolated A) {
    let pausing = kind == .pausing
    var delivered = 0
    var unaccounted = 0  // delivered and not given back yet
    var reopening: UInt64 = 0
    while true {
      let take = state.withLock { state -> Take in
        if pausing, unaccounted != 0 {
          reopening = givingBack(unaccounted, in: &state)
          unaccounted = 0
        }
        guard !state.isEnded else {
          state.phase = .idle
          return .drained
        }
        let batch: ArraySlice<Event<Value, StressFailure>>
        if !state.carried.isEmpty {
          batch = state.carried
          state.carried = []
        } else if state.queued.isEmpty {
          state.phase = .idle
          return .drained
        } else if delivered >= isolatedDeliveryBudget {
          state.phase = .scheduled
          return .budgetSpent
        } else {
          batch = state.queued[...]
          state.queued = []
          if pausing, bug == .reopensBeforeGivingBack {
            // BUG: taken is not delivered; the callbacks of the whole batch are still to run.
            reopening = givingBack(batch.filter { !$0.isTerminating }.count, in: &state)
          }
        }
        state.phase = .delivering
        return .deliver(batch)
      }
      reopen(&reopening)
      let batch: ArraySlice<Event<Value, StressFailure>>
      switch take {
      case .drained: return
      case .budgetSpent:
        scheduleJob()
        return
      case .deliver(let taken): batch = taken
      }
      var index = batch.startIndex
      while index < batch.endIndex {
        if delivered >= isolatedDeliveryBudget {
          // BUG (`losesCarriedValue`): the rest starts one past the value the job stopped at.
          let rest = bug == .losesCarriedValue ? batch[(index + 1)...] : batch[index...]
          let carried = state.withLock { state -> Bool in
            guard !state.isEnded else { return false }
            if pausing, unaccounted != 0 { reopening = givingBack(unaccounted, in: &state) }
            state.carried = rest
            trimCarried(&state)
            state.phase = .scheduled
            return true
          }
          reopen(&reopening)
          if carried { scheduleJob() }
          return
        }
        if isDisposed { return }
        let event = batch[index]
        index += 1
        delivered += 1
        handler(actor, event)
        if event.isTerminating {
          end()
          return
        }
        guard pausing, bug != .reopensBeforeGivingBack else { continue }
        unaccounted += 1
        if unaccounted >= checkpoint {
          state.withLock { state in reopening = givingBack(unaccounted, in: &state) }
          unaccounted = 0
          reopen(&reopening)
        }
      }
    }
  }

  /// A carried batch waits again beside what queued meanwhile: a dropping policy drops what is now past its limit
  /// (the oldest, or the newest), counted, the terminal event kept last, as the library does.
  private func trimCarried(_ state: inout State) {
    guard let kind, kind != .pausing else { return }
    var waiting = Array(state.carried) + state.queued
    let terminal = waiting.last?.isTerminating == true ? waiting.removeLast() : nil
    let excess = waiting.count - limit
    guard excess > 0 else { return }
    drops.add(excess, ordering: .relaxed)
    if kind == .dropsOldest { waiting.removeFirst(excess) } else { waiting.removeLast(excess) }
    if let terminal { waiting.append(terminal) }
    state.carried = waiting[...]  // all of it ahead of what queues next, in order
    state.queued = []
  }

  /// `delivered` values' callbacks have run: returns the number of a change that reopens the demand once half the
  /// bound or less waits (0: none).
  private func givingBack(_ delivered: Int, in state: inout State) -> UInt64 {
    state.waiting -= delivered
    guard !state.demandOpen, state.waiting <= limit / 2 else { return 0 }
    state.demandOpen = true
    state.generation += 1
    return state.generation
  }

  /// Applies a reopening decided under the lock, and resumes the paused sources.
  private func reopen(_ generation: inout UInt64) {
    guard generation != 0, let demand else { return }
    let resumptions = demand.reopen(generation: generation)
    generation = 0
    if bug == .reopensWithoutResuming { return }  // BUG: the paused sources are never told
    for resumption in resumptions { resumption() }
  }

  // MARK: Ending

  var isDisposed: Bool { ended.load(ordering: .acquiring) }

  func dispose() { end() }

  private func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let upstream = state.withLock { state -> (any Disposable)? in
      state.isEnded = true
      state.queued = []
      state.carried = []
      defer { state.upstream = nil }
      return state.upstream
    }
    upstream?.dispose()
    for resumption in demand?.end() ?? [] { resumption() }
  }
}
