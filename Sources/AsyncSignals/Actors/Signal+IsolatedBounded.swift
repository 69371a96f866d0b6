// Bounded delivery into an actor (flow control into actors): the forms of `subscribeNext(isolatedTo:…)` and
// `bind(isolatedTo:_:)` that take a `SignalBufferingPolicy`. The engine is `IsolatedDelivery` with a
// `DeliveryBound`.

extension Signal {
  /// Subscribes with callbacks that run isolated to `actor`, with at most `bufferingPolicy`'s limit of values
  /// waiting for the actor: for each value, the failure and completion.
  ///
  /// Delivery, order, fairness and lifetime are those of ``subscribeNext(isolatedTo:_:error:completed:isolation:)``;
  /// the policy bounds what waits for the actor, counted from a value's arrival until its callback has run:
  /// - ``SignalBufferingPolicy/bounded(_:)``: a source that can pause (`Signal.from`, an async producer's
  ///   `await send`, a subject's `await send(_:)`, through `map`, `filter`, hops and the other operators that carry
  ///   the pause) stops once `n` values wait and goes on once the actor has taken them down to half; nothing is lost.
  ///   A sender that cannot pause (a subject's `sendNext`, a `create` body) never waits: what it sends past `n` is
  ///   queued and counted in ``IsolatedSubscription/overflowCount``.
  /// - ``SignalBufferingPolicy/bufferingNewest(_:)`` and ``SignalBufferingPolicy/bufferingOldest(_:)``: at most `n`
  ///   values are queued; the oldest waiting one, or the new one, is dropped and counted in
  ///   ``IsolatedSubscription/droppedCount``. The sources run unpaused. The terminal event is never dropped.
  /// - ``SignalBufferingPolicy/unbounded``: as without a policy, with counts of zero.
  ///
  /// The limit must be positive. Disposing discards the values still waiting and resumes the paused sources, which
  /// find the subscription ended.
  ///
  /// ```swift
  /// actor Store {
  ///   var records: [Record] = []
  ///   var failure: APIError?
  ///   func follow(_ feed: Signal<Record, APIError>) -> IsolatedSubscription {
  ///     feed.subscribeNext(
  ///       isolatedTo: self, bufferingPolicy: .bounded(64), { store, record in store.records.append(record) },
  ///       error: { store, error in store.failure = error }, completed: { _ in })
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the callbacks run in; held until the subscription ends.
  ///   - bufferingPolicy: How many values may wait for the actor, and what happens past that.
  ///   - next: Called with each value.
  ///   - error: Called with the failure.
  ///   - completed: Called on completion.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription, with its counts.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:scheduler] subscribeNext:error:completed:]`, which queues every
  ///   value; the bound is this library's (RxJava's `Flowable.observeOn` carries demand likewise).
  @inlinable
  @discardableResult
  public func subscribeNext<A: Actor>(
    isolatedTo actor: A,
    bufferingPolicy: SignalBufferingPolicy,
    _ next: @escaping @Sendable (isolated A, Value) -> Void,
    error: @escaping @Sendable (isolated A, Failure) -> Void,
    completed: @escaping @Sendable (isolated A) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> IsolatedSubscription {
    let bound = DeliveryBound(bufferingPolicy, caller: "subscribeNext(isolatedTo:bufferingPolicy:)")
    let delivery = subscribeIsolated(
      to: actor, subscribingOnActor: isolation === actor, bound: bound, next, error: error, completed: completed)
    return IsolatedSubscription(delivery, bufferingPolicy: bufferingPolicy, bound: bound)
  }
}

extension Signal where Failure == Never {
  /// Subscribes with a callback that runs isolated to `actor` for each value, with at most `bufferingPolicy`'s
  /// limit of values waiting for the actor.
  ///
  /// Available when the signal cannot fail. Bound, delivery and lifetime as in
  /// ``subscribeNext(isolatedTo:bufferingPolicy:_:error:completed:isolation:)``.
  ///
  /// ```swift
  /// actor Archive {
  ///   var lines = 0
  ///   func ingest(_ file: Signal<String, Never>) -> IsolatedSubscription {
  ///     // `Signal.from` pauses while 64 lines wait: memory stays flat however large the file.
  ///     file.subscribeNext(isolatedTo: self, bufferingPolicy: .bounded(64)) { archive, _ in archive.lines += 1 }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the callback runs in; held until the subscription ends.
  ///   - bufferingPolicy: How many values may wait for the actor, and what happens past that.
  ///   - next: Called with each value.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription, with its counts.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:scheduler] subscribeNext:]`, with a bound.
  @inlinable
  @discardableResult
  public func subscribeNext<A: Actor>(
    isolatedTo actor: A, bufferingPolicy: SignalBufferingPolicy,
    _ next: @escaping @Sendable (isolated A, Value) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> IsolatedSubscription {
    subscribeNext(
      isolatedTo: actor, bufferingPolicy: bufferingPolicy, next, error: { _, _ in }, completed: { _ in },
      isolation: isolation)
  }

  /// Binds each value into `actor`'s state with `set`, with at most `bufferingPolicy`'s limit of values waiting
  /// for the actor, until the signal completes, the binding is disposed, or the actor goes away.
  ///
  /// The binding of ``bind(isolatedTo:_:isolation:)`` (the actor held weakly, ended with it) with the bound of
  /// ``subscribeNext(isolatedTo:bufferingPolicy:_:error:completed:isolation:)``. `.bufferingNewest(1)` keeps only
  /// the latest value for an actor that cannot keep up.
  ///
  /// ```swift
  /// actor Dashboard {
  ///   var load = 0.0
  ///   func follow(_ samples: Signal<Double, Never>) {
  ///     samples.bind(isolatedTo: self, bufferingPolicy: .bufferingNewest(1)) { dashboard, load in
  ///       dashboard.load = load
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor to update; held weakly.
  ///   - bufferingPolicy: How many values may wait for the actor, and what happens past that.
  ///   - set: Stores a value into the actor's state.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The binding, with its counts.
  /// - Note: ReactiveCocoa 2.5 `RAC(object, keyPath)`, with an actor's setter and a bound.
  @inlinable
  @discardableResult
  public func bind<A: Actor>(
    isolatedTo actor: A, bufferingPolicy: SignalBufferingPolicy, _ set: @escaping @Sendable (isolated A, Value) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> IsolatedSubscription {
    let bound = DeliveryBound(bufferingPolicy, caller: "bind(isolatedTo:bufferingPolicy:)")
    let binding = bindIsolated(to: actor, subscribingOnActor: isolation === actor, bound: bound, set)
    return IsolatedSubscription(binding, bufferingPolicy: bufferingPolicy, bound: bound)
  }
}
