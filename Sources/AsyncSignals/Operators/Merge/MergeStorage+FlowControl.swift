// The paths `MergeStorage` takes under a bounded consumer (an observer that carries a demand; see
// `MergeFlowControl`). They mirror the unbounded ones step for step, and add the stages' places: an inner signal
// takes one in `inners` as it arrives and gives it back when it completes; a value takes one in `values` before it
// is queued, and the outbox's observer gives it back once delivered. They are kept apart from the unbounded paths,
// rather than branching inside them, so that those stay as they were, instruction for instruction.

extension MergeStorage {
  /// `attach(outer:limit:observer:)` under a bounded consumer whose demand is `demand`: the outer signal's observer
  /// carries the operator's concurrency stage, whose place each inner signal takes as it arrives.
  @inlinable
  static func attachPaced(
    outer: Signal<Signal<Value, Failure>, Failure>, limit: Int, observer: Observer<Value, Failure>, demand: Demand
  ) -> any Disposable {
    let flowControl = MergeFlowControl(consumer: demand, maxConcurrent: limit, concurrent: limit)
    let storage = MergeStorage(limit: limit, observer: observer, flowControl: flowControl)
    let subscription = outer.attach(
      Observer(
        { event in
          switch event {
          case .next(let signal):
            // Its place is taken before the outer's next value is asked for: at the limit, the outer pauses.
            flowControl.inners?.take()
            return storage.receivedInnerPaced(signal)
          case .error(let error): return storage.state.handle { $0.finish(.error(error)) }
          case .completed: return storage.state.handle { $0.outerCompleted() }
          }
        }, demand: flowControl.inners))
    storage.state.handle { $0.attachedOuter(subscription) }
    return storage
  }

  /// `attach(_:limit:observer:)` under a bounded consumer whose demand is `demand`: the signals are in hand already,
  /// so only their values are held back.
  @inlinable
  static func attachPaced(
    _ signals: [Signal<Value, Failure>], limit: Int, observer: Observer<Value, Failure>, demand: Demand
  ) -> any Disposable {
    let storage = MergeStorage(
      limit: limit, observer: observer,
      flowControl: MergeFlowControl(consumer: demand, maxConcurrent: nil, concurrent: Swift.min(limit, signals.count)))
    for signal in signals {
      guard storage.receivedInnerPaced(signal) == .proceed else { return storage }
    }
    storage.state.handle { $0.outerCompleted() }
    return storage
  }

  /// `receivedInner(_:)` under a bounded consumer.
  @inlinable
  func receivedInnerPaced(_ signal: Signal<Value, Failure>) -> Flow {
    let (start, flow) = state.decide { $0.receivedInner(signal, newInner) }
    guard let start else { return flow }
    return subscribePaced(from: start)
  }

  /// `subscribe(from:)` under a bounded consumer: each inner signal's observer carries the hand-off stage.
  @inlinable
  func subscribePaced(from first: Start) -> Flow {
    let values = flowControl.unsafelyUnwrapped.values
    var start: Start? = first
    var flow = Flow.proceed
    while let current = start {
      let inner = current.inner
      // A raw observer (one closure, where `Observer(_:demand:)` wraps a second): besides saving a call per event,
      // it keeps this closure from being merged with the unbounded path's, which would cost that path a thunk.
      let subscription = current.signal.attach(
        Observer(
          raw: { kind, payload in inner.storage.receivedPaced(Event(kind, payload), from: inner) }, demand: values))
      let next: (start: Start?, ended: (any Disposable)?)
      (next, flow) = state.decide { $0.attachedInner(inner, subscription, newInner) }
      next.ended?.dispose()
      start = next.start
    }
    return flow
  }

  /// `received(_:from:)` under a bounded consumer: a value takes its place in the hand-off stage before it is
  /// queued; a completed inner gives its place back in the concurrency stage, which may resume the outer signal
  /// here, with no lock held.
  @inlinable
  func receivedPaced(_ event: Event<Value, Failure>, from inner: InnerSubscription) -> Flow {
    switch event {
    case .next(let value):
      flowControl.unsafelyUnwrapped.values.take()
      return state.update { $0.outbox.send(.next(value)) }
    case .error(let error):
      return state.handle { $0.finish(.error(error)) }
    case .completed:
      let (start, flow) = state.decide { $0.innerCompleted(inner, newInner) }
      if let start { _ = subscribePaced(from: start) }
      flowControl.unsafelyUnwrapped.inners?.release()
      return flow
    }
  }
}
