// The internal observer protocol that every operator speaks.
//
// A signal is attached to an `Observer`, which receives one event at a time and answers whether it wants
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
//
// Speed across the module boundary: an observer is a type-erased entry point, `(EventKind, payload pointer)`,
// built from a typed closure by `@inlinable` code and invoked by `@inlinable` code — both specialised in the
// module that uses the operators, where `Value` and `Failure` are concrete. The machinery in between (sinks,
// subjects) is not generic at all, so it never asks the runtime for generic metadata on the hot path; that
// lookup is what costs unspecialised reactive code most of its time.

/// An observer's answer to an event: whether it wants more.
@usableFromInline
enum Flow: Sendable {
  /// Keep sending.
  case proceed
  /// Send nothing more: the observer has terminated. The sender disposes its upstream.
  case stop
}

/// The kind of an event, without its payload.
@usableFromInline
enum EventKind: UInt8, Sendable {
  /// The payload points to a `Value`.
  case next
  /// The payload points to a `Failure`.
  case error
  /// There is no payload.
  case completed
}

/// The type-erased form of an observer: an event's kind and a pointer to its payload, valid for the call.
@usableFromInline
typealias RawObserver = @Sendable (EventKind, UnsafeRawPointer?) -> Flow

/// Receives the events of one subscription and says whether it wants more. See the contract above.
@usableFromInline
struct Observer<Value, Failure: Error>: Sendable {
  @usableFromInline
  let raw: RawObserver
  /// The room of a bounded consumer at the end of the chain, for a source that can pause (see `Demand`); `nil`
  /// where no consumer bounds the chain, or where an operator on the way does not carry the pause.
  @usableFromInline
  let demand: Demand?

  /// An observer that hands each event to `body`.
  @inlinable
  init(_ body: @escaping @Sendable (Event<Value, Failure>) -> Flow, demand: Demand? = nil) {
    self.demand = demand
    raw = { kind, payload in
      switch kind {
      case .next: return body(.next(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee))
      case .error: return body(.error(payload.unsafelyUnwrapped.assumingMemoryBound(to: Failure.self).pointee))
      case .completed: return body(.completed)
      }
    }
  }

  @inlinable
  init(raw: @escaping RawObserver, demand: Demand? = nil) {
    self.raw = raw
    self.demand = demand
  }

  /// An observer that hands each value to `next` and passes terminal events to `downstream` untouched, without
  /// copying the failure. It calls `next` from its own closure: for the hottest operators (`map`, `doNext`),
  /// writing the raw closure by hand saves that second call.
  @inlinable
  static func forwardingTerminal<Downstream>(
    to downstream: Observer<Downstream, Failure>, next: @escaping @Sendable (Value) -> Flow
  ) -> Observer {
    Observer(
      raw: { kind, payload in
        guard kind == .next else { return downstream.raw(kind, payload) }
        return next(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee)
      }, demand: downstream.demand)  // one value at most per value, on the sending thread: carries the pause
  }

  /// An observer that shows each value to `passes` and, if it returns `true`, hands the event to `downstream`
  /// untouched, payload pointer and all; terminal events always pass: the shape of `filter`, `doNext`, `skip`.
  @inlinable
  static func passing(
    to downstream: Observer<Value, Failure>, where passes: @escaping @Sendable (Value) -> Bool
  ) -> Observer {
    Observer(
      raw: { kind, payload in
        if kind == .next, !passes(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee) {
          return .proceed
        }
        return downstream.raw(kind, payload)
      }, demand: downstream.demand)  // passes or drops each value, on the sending thread: carries the pause
  }

  /// Delivers a value without building an `Event`: cheap even in unspecialised code.
  @inlinable
  func sendNext(_ value: Value) -> Flow {
    withUnsafePointer(to: value) { raw(.next, UnsafeRawPointer($0)) }
  }

  /// Delivers a failure without building an `Event`.
  @inlinable
  func sendError(_ error: Failure) -> Flow {
    withUnsafePointer(to: error) { raw(.error, UnsafeRawPointer($0)) }
  }

  /// Delivers completion.
  @inlinable
  func sendCompleted() -> Flow {
    raw(.completed, nil)
  }

  /// Delivers `event`.
  @inlinable
  func callAsFunction(_ event: Event<Value, Failure>) -> Flow {
    switch event {
    case .next(let value): return withUnsafePointer(to: value) { raw(.next, UnsafeRawPointer($0)) }
    case .error(let error): return withUnsafePointer(to: error) { raw(.error, UnsafeRawPointer($0)) }
    case .completed: return raw(.completed, nil)
    }
  }
}

extension Event {
  /// The typed event behind a raw observer's arguments (see `RawObserver`), for observers built with
  /// `Observer(raw:)` that want one closure context instead of the two of `Observer(_:)`.
  @inlinable
  init(_ kind: EventKind, _ payload: UnsafeRawPointer?) {
    switch kind {
    case .next: self = .next(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee)
    case .error: self = .error(payload.unsafelyUnwrapped.assumingMemoryBound(to: Failure.self).pointee)
    case .completed: self = .completed
    }
  }
}

extension EventKind {
  /// Hands a raw event (see `RawObserver`) to the closure for its kind, as a subscriber made of closures does, and
  /// answers `.proceed` after a value and `.stop` after the terminal event. Inlined, so the closures are called
  /// directly, typed where the caller is specialised.
  @inlinable @inline(__always)
  func send<Value, Failure>(
    _ payload: UnsafeRawPointer?, next: (Value) -> Void, error: (Failure) -> Void, completed: () -> Void
  ) -> Flow {
    switch self {
    case .next:
      next(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee)
      return .proceed
    case .error:
      error(payload.unsafelyUnwrapped.assumingMemoryBound(to: Failure.self).pointee)
    case .completed:
      completed()
    }
    return .stop
  }
}

/// State that only a serially-called observer touches.
///
/// Observers are called one at a time (contract 1 above), ordered by the lock of whatever delivers to them,
/// so stateful single-input operators (`take`, `scan`, `bind`'s step) keep their state in this box instead of
/// paying for a second lock per event.
@usableFromInline
final class ObserverState<State>: @unchecked Sendable {
  // guarded by: the delivery lock that serialises calls to the observer owning this box (contract 1).
  // No dynamic exclusivity check: that serialisation already rules out overlapping accesses, and the check
  // (swift_beginAccess, compiled into the module that inlines the operator) costs more than the operator's work.
  @exclusivity(unchecked) @usableFromInline var value: State

  @inlinable
  init(_ value: State) {
    self.value = value
  }
}
