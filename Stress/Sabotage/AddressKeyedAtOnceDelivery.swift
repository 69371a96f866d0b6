import AsyncSignals
import Dispatch

/// The broken twin of `subscribeNext(isolatedTo:)`'s at-once path (`--sabotage SchedulerReuse`): a hand-written
/// bridge that knows "this code runs on the actor's queue" the way `QueueScheduler` did before issue 20. One key,
/// shared by every scheduler, marks a scheduler's queue with `ObjectIdentifier(scheduler)` (when the scenario
/// "adopts" it); a send that finds the actor's scheduler's identifier there, with nothing waiting, is delivered at
/// once, with the actor's isolation taken for granted. Otherwise it is queued and one block on the actor's queue
/// delivers what is queued, in order. The bug: the mark names an address, and a queue that outlived its scheduler
/// keeps the mark of an address the next scheduler gets, so a send on the old queue is delivered there, while the
/// actor runs on its own queue.
enum AddressKeyedAtOnceDelivery {
  static let description =
    "an at-once bridge that knows its actor's queue by ObjectIdentifier(scheduler) under one shared key (the old way)"

  /// The one key of every adopted queue.
  private static let key = DispatchSpecificKey<ObjectIdentifier>()

  /// Marks `scheduler`'s queue, as `QueueScheduler.init` did before issue 20.
  static func adopt(_ scheduler: QueueScheduler) {
    scheduler.queue.setSpecific(key: key, value: ObjectIdentifier(scheduler))
  }

  /// BUG: true on any queue marked with this scheduler's address, including one whose scheduler was released and
  /// whose address this scheduler now has.
  static func isCurrent(_ scheduler: QueueScheduler) -> Bool {
    DispatchQueue.getSpecific(key: key) == ObjectIdentifier(scheduler)
  }

  /// Subscribes `next`, called on `actor`, whose executor is `scheduler`.
  static func subscribeNext<A: Actor, Value: Sendable>(
    _ signal: Signal<Value, StressFailure>, isolatedTo actor: A, on scheduler: QueueScheduler,
    _ next: @escaping @Sendable (isolated A, Value) -> Void
  ) -> any Disposable {
    let bridge = Bridge(actor: actor, scheduler: scheduler, next)
    let upstream = signal.subscribeNext({ value in bridge.received(value) }, error: { _ in })
    return ActionDisposable {
      upstream.dispose()
      bridge.end()
    }
  }

  private final class Bridge<A: Actor, Value: Sendable>: Sendable {
    enum Phase {
      case idle, scheduled, delivering
    }

    struct State {
      var queued: [Value] = []
      var phase = Phase.idle
      var ended = false
    }

    enum Arrival {
      case deliverNow, schedule, queued
    }

    let actor: A
    let scheduler: QueueScheduler
    /// `next` with its isolation erased, as `assumeIsolated` would after its check: call it only on the actor.
    let handler: @Sendable (A, Value) -> Void
    let state = LockedBox(State())

    init(actor: A, scheduler: QueueScheduler, _ next: @escaping @Sendable (isolated A, Value) -> Void) {
      self.actor = actor
      self.scheduler = scheduler
      handler = unsafeBitCast(next, to: (@Sendable (A, Value) -> Void).self)
    }

    func received(_ value: Value) {
      let onActorsQueue = AddressKeyedAtOnceDelivery.isCurrent(scheduler)
      let arrival = state.withLock { state -> Arrival in
        if state.ended { return .queued }
        switch state.phase {
        case .idle where onActorsQueue:
          state.phase = .delivering
          return .deliverNow
        case .idle:
          state.queued.append(value)
          state.phase = .scheduled
          return .schedule
        case .scheduled, .delivering:
          state.queued.append(value)
          return .queued
        }
      }
      switch arrival {
      case .deliverNow:
        handler(actor, value)  // BUG: "on the actor's queue" may be a queue that outlived a released scheduler
        drain()
      case .schedule:
        scheduler.queue.async { self.drain() }
      case .queued:
        break
      }
    }

    /// Delivers what is queued, in order, then goes idle.
    func drain() {
      while true {
        let batch = state.withLock { state -> [Value] in
          guard !state.ended, !state.queued.isEmpty else {
            state.phase = .idle
            return []
          }
          state.phase = .delivering
          defer { state.queued = [] }
          return state.queued
        }
        if batch.isEmpty { return }
        for value in batch { handler(actor, value) }
      }
    }

    func end() {
      state.withLock { state in
        state.ended = true
        state.queued = []
      }
    }
  }
}
