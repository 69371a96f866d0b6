/// Performs `merge`, `flatten(maxConcurrent:)` and `concat` of signals: owns the lock, and subscribes to the
/// inner signals the state machine admits, with the lock released.
///
/// Under a bounded consumer (an observer that carries a demand), `merge`, `concat` and a limited `flatten` carry the
/// pause through `MergeFlowControl`'s two stages: the outer signal pauses while `limit` inners are in hand, and the
/// inner signals pause while the consumer is full. Without one, or for an unlimited `flatten` (whose inners are
/// never held back, so that pausing its outer would bound nothing it holds), nothing of it runs: the paths below
/// are those of RAC's operators, event for event.
@usableFromInline
final class MergeStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  typealias Start = MergeStateMachine<Value, Failure>.Start

  @usableFromInline
  let state: LockedState<MergeStateMachine<Value, Failure>>  // guards every decision of the operator
  /// The stages of a bounded consumer's flow control; `nil` without one (the state machine ends them).
  @usableFromInline
  let flowControl: MergeFlowControl?

  @inlinable
  init(limit: Int, observer: Observer<Value, Failure>) {
    state = LockedState(MergeStateMachine(limit: limit, observer: observer))
    flowControl = nil
  }

  /// Under a bounded consumer: `observer` is the consumer's, and the outbox delivers to it through `flowControl`.
  @inlinable
  init(limit: Int, observer: Observer<Value, Failure>, flowControl: MergeFlowControl) {
    state = LockedState(
      MergeStateMachine(limit: limit, observer: flowControl.delivering(to: observer), flowControl: flowControl))
    self.flowControl = flowControl
  }

  /// Merges the inner signals that `outer` sends, at most `limit` at a time.
  @inlinable
  static func attach(
    outer: Signal<Signal<Value, Failure>, Failure>, limit: Int, observer: Observer<Value, Failure>
  ) -> any Disposable {
    if let demand = observer.demand, limit != .max {
      return attachPaced(outer: outer, limit: limit, observer: observer, demand: demand)
    }
    let storage = MergeStorage(limit: limit, observer: observer)
    let subscription = outer.attach { event in
      switch event {
      case .next(let signal): return storage.receivedInner(signal)
      case .error(let error): return storage.state.handle { $0.finish(.error(error)) }
      case .completed: return storage.state.handle { $0.outerCompleted() }
      }
    }
    storage.state.handle { $0.attachedOuter(subscription) }
    return storage
  }

  /// Merges `signals`, at most `limit` at a time, as if an outer signal sent them all and completed.
  @inlinable
  static func attach(
    _ signals: [Signal<Value, Failure>], limit: Int, observer: Observer<Value, Failure>
  ) -> any Disposable {
    if let demand = observer.demand {
      return attachPaced(signals, limit: limit, observer: observer, demand: demand)
    }
    let storage = MergeStorage(limit: limit, observer: observer)
    for signal in signals {
      guard storage.receivedInner(signal) == .proceed else { return storage }
    }
    storage.state.handle { $0.outerCompleted() }
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }

  @inlinable
  func receivedInner(_ signal: Signal<Value, Failure>) -> Flow {
    let (start, flow) = state.decide { $0.receivedInner(signal, newInner) }
    guard let start else { return flow }
    return subscribe(from: start)
  }

  /// The trampoline: subscribes to `first`, then to each inner signal the state machine admits next, in a
  /// loop rather than by recursion. Returns whether the operator is still open.
  @inlinable
  func subscribe(from first: Start) -> Flow {
    var start: Start? = first
    var flow = Flow.proceed
    while let current = start {
      let inner = current.inner
      // The closure captures the inner record alone, which knows the storage: a closure capturing one reference
      // needs no context of its own, so each inner subscription costs one allocation less.
      let subscription = current.signal.attach { event in inner.storage.received(event, from: inner) }
      let next: (start: Start?, ended: (any Disposable)?)
      (next, flow) = state.decide { $0.attachedInner(inner, subscription, newInner) }
      next.ended?.dispose()
      start = next.start
    }
    return flow
  }

  /// A record for a new inner subscription of this storage.
  @inlinable
  func newInner() -> MergeStateMachine<Value, Failure>.Inner {
    InnerRecord(storage: self)
  }

  @inlinable
  func received(_ event: Event<Value, Failure>, from inner: InnerSubscription) -> Flow {
    switch event {
    case .next(let value):
      return state.update { $0.outbox.send(.next(value)) }
    case .error(let error):
      return state.handle { $0.finish(.error(error)) }
    case .completed:
      let (start, flow) = state.decide { $0.innerCompleted(inner, newInner) }
      if let start { _ = subscribe(from: start) }
      return flow
    }
  }
}
