// The internal observer protocol that every operator speaks.
//
// A signal is attached to an `Observer`: a closure that receives one event and answers whether it wants
// more. The contract, which every producer of events in the package upholds:
//
// 1. Serial: an observer is never called concurrently. Its calls are ordered by a lock (the delivery lock of
//    the `Sink` at the root of its chain, or the state lock of a multi-input operator's hand-off queue), so
//    state that only the observer touches needs no lock of its own.
// 2. Terminal: after an observer has received `error` or `completed`, or has answered `.stop`, it is never
//    called again.
//
// `.stop` travels upstream as a return value: an operator that has finished (`take(1)` after its value)
// answers `.stop`, every plain forwarding operator passes the answer on, and the root `Sink` then disposes
// the subscription. Plain forwarding operators (`map`, `filter`) therefore need neither an allocation nor a
// lock per event.

/// An observer's answer to an event: whether it wants more.
@usableFromInline
enum Flow: Sendable {
  /// Keep sending.
  case proceed
  /// Send nothing more: the observer has terminated. The sender disposes its upstream.
  case stop
}

/// A closure that receives one event and says whether it wants more. See the contract above.
@usableFromInline
typealias Observer<Value, Failure: Error> = @Sendable (Event<Value, Failure>) -> Flow

/// State that only a serially-called observer touches.
///
/// Observers are called one at a time (contract 1 above), ordered by the lock of whatever delivers to them,
/// so stateful single-input operators (`take`, `scan`, `bind`'s step) keep their state in this box instead of
/// paying for a second lock per event.
@usableFromInline
final class ObserverState<State>: @unchecked Sendable {
  // guarded by: the delivery lock that serialises calls to the observer owning this box (contract 1).
  @usableFromInline var value: State

  @inlinable
  init(_ value: State) {
    self.value = value
  }
}
