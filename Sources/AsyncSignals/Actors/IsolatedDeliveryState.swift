#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The isolated-delivery engine's parts (IsolatedDelivery.swift has the engine and the rules): how it holds its actor,
// its fairness budget and modes, and the state its lock guards.

/// How the engine holds its actor.
@usableFromInline
enum ActorReference<A: Actor>: Sendable {
  case strong(A)
  case weak(WeakActor<A>)

  @inlinable
  var actor: A? {
    switch self {
    case .strong(let actor): return actor
    case .weak(let box): return box.actor
    }
  }
}

/// A weak reference to an actor.
@usableFromInline
final class WeakActor<A: Actor>: Sendable {
  @usableFromInline
  weak let actor: A?

  @inlinable
  init(_ actor: A) {
    self.actor = actor
  }
}

/// How many callbacks one delivery job runs before it lets the actor's other work run (see the comment at the top
/// of this file): small enough that an awaited actor method waits little behind a flood, large enough that a
/// job's cost (a Dispatch block, or a `Task` hop) stays small beside the callbacks it runs.
@usableFromInline
package let isolatedDeliveryBudget = 128

/// Whether a send made on the actor's executor is delivered before it returns.
@usableFromInline
enum IsolatedDeliveryMode: Sendable {
  /// Delivered at once when the sender already runs on the actor's executor and nothing is waiting.
  case atOnceOnExecutor
  /// Always queued and delivered by a later job, even when sent on the actor's executor.
  case alwaysAsynchronous
}

/// The engine's mutable state, guarded by its lock.
@usableFromInline
struct IsolatedDeliveryState<A: Actor, Value: Sendable, Failure: Error>: Sendable {
  /// The callbacks, as `IsolatedDelivery.init` received them: isolated to the actor.
  @usableFromInline
  typealias IsolatedHandler = @Sendable (isolated A, Event<Value, Failure>) -> Flow
  /// The same callbacks with the isolation erased, to be called only on the actor's executor (see
  /// `IsolatedDelivery.call(_:_:_:)`).
  @usableFromInline
  typealias Handler = @Sendable (A, Event<Value, Failure>) -> Flow

  @usableFromInline
  enum Phase: Sendable {
    /// Nothing queued and nobody delivering.
    case idle
    /// A job is on its way to the actor to drain the queue (a new one, or the continuation of one that spent its
    /// budget).
    case scheduled
    /// Events are being delivered on the actor, by a job or by a sender on its executor.
    case delivering
  }

  /// The actor and the callbacks; `nil` once the subscription has ended.
  @usableFromInline
  var target: (reference: ActorReference<A>, handler: Handler)?
  /// Events waiting for a job: from the bound's `queuedStart` on (a dropping bound drops from the front, see
  /// `DeliveryBound`), from the first without one.
  @usableFromInline
  var queued = ContiguousArray<Event<Value, Failure>>()
  /// Events a job took from `queued` but did not deliver, because it spent its budget: `carried[carriedStart...]`
  /// are delivered by the job's continuation, before anything in `queued`.
  @usableFromInline
  var carried = ContiguousArray<Event<Value, Failure>>()
  @usableFromInline
  var carriedStart = 0
  @usableFromInline
  var phase = Phase.idle
  /// The terminal event has arrived from upstream (it may still be queued).
  @usableFromInline
  var upstreamEnded = false
  /// The subscription to the source, disposed when the engine ends.
  @usableFromInline
  var upstream: (any Disposable)?
  /// The thread subscribing in the actor's own isolation, while `attach` runs there: what the signal sends on it
  /// during the subscription is sent on the actor's executor, whatever kind of executor that is.
  @usableFromInline
  var subscribingOnActor: pthread_t?

  @inlinable
  init(reference: ActorReference<A>, handler: @escaping Handler) {
    target = (reference, handler)
  }
}
