// Subscriptions whose callbacks run in an actor's isolation, checked by the compiler: each callback receives the
// actor as an `isolated` parameter, so it reads and writes the actor's state with no `await` and no
// `assumeIsolated`. The engine is `IsolatedDelivery`.

extension Signal {
  /// Subscribes with callbacks that run isolated to `actor`: for each value, the failure and completion.
  ///
  /// Each callback receives `actor` as an `isolated` parameter, so it touches the actor's state directly. Events
  /// arrive in the order they were sent, one at a time, the terminal event last. They are queued and one job on
  /// the actor delivers a whole burst; no `Task` is made per event. When the sender already runs on the actor's
  /// executor and nothing is waiting, the event is delivered before `sendNext` returns; otherwise it is delivered
  /// later, by that job. The library knows it runs on the actor's executor on the main queue (for the main
  /// actor), on the ``QueueScheduler`` that is the actor's executor, and — for any actor — while this call
  /// subscribes from the actor's own isolation: a signal that sends at once, such as a ``BehaviorSubject``,
  /// has then delivered its values when `subscribeNext` returns.
  ///
  /// The subscription holds `actor` strongly until it ends, as a closure capturing the actor would. It ends with
  /// the terminal event or when disposed; then the callbacks and the actor are released (a delivery job already
  /// under way lets go of the actor once it has run). Once `dispose()` has
  /// returned on the actor, no callback runs again; disposed elsewhere, a callback already under way finishes.
  ///
  /// ```swift
  /// actor Portfolio {
  ///   var total = 0.0
  ///   var failure: QuoteError?
  ///   func follow(_ quotes: Signal<Double, QuoteError>) -> any Disposable {
  ///     quotes.subscribeNext(
  ///       isolatedTo: self, { portfolio, price in portfolio.total += price },
  ///       error: { portfolio, error in portfolio.failure = error },
  ///       completed: { _ in })
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the callbacks run in; held until the subscription ends.
  ///   - next: Called with each value.
  ///   - error: Called with the failure.
  ///   - completed: Called on completion.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:scheduler] subscribeNext:error:completed:]`, with an actor in
  ///   place of the scheduler and the isolation checked at compile time.
  @inlinable
  @discardableResult
  public func subscribeNext<A: Actor>(
    isolatedTo actor: A,
    _ next: @escaping @Sendable (isolated A, Value) -> Void,
    error: @escaping @Sendable (isolated A, Failure) -> Void,
    completed: @escaping @Sendable (isolated A) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeIsolated(
      to: actor, subscribingOnActor: isolation === actor, bound: nil, next, error: error, completed: completed)
  }

  /// The body of `subscribeNext(isolatedTo:…)`, with a bound or without: the three callbacks through the engine.
  @inlinable
  func subscribeIsolated<A: Actor>(
    to actor: A, subscribingOnActor: Bool, bound: DeliveryBound?,
    _ next: @escaping @Sendable (isolated A, Value) -> Void,
    error: @escaping @Sendable (isolated A, Failure) -> Void,
    completed: @escaping @Sendable (isolated A) -> Void
  ) -> IsolatedDelivery<A, Value, Failure> {
    IsolatedDelivery.attach(
      self, to: .strong(actor), executor: ActorExecutor(of: actor), mode: .atOnceOnExecutor,
      subscribingOnActor: subscribingOnActor, bound: bound
    ) { actor, event in
      switch event {
      case .next(let value):
        next(actor, value)
        return .proceed
      case .error(let failure):
        error(actor, failure)
      case .completed:
        completed(actor)
      }
      return .stop
    }
  }

  /// Subscribes with callbacks that run isolated to `actor`, for each value and the failure; completion ends the
  /// subscription silently.
  ///
  /// Delivery, order and lifetime as in ``subscribeNext(isolatedTo:_:error:completed:isolation:)``.
  ///
  /// ```swift
  /// search.subscribeNext(isolatedTo: library, { library, page in library.pages.append(page) },
  ///                      error: { library, error in library.lastError = error })
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the callbacks run in; held until the subscription ends.
  ///   - next: Called with each value.
  ///   - error: Called with the failure.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:scheduler] subscribeNext:error:]`.
  @inlinable
  @discardableResult
  public func subscribeNext<A: Actor>(
    isolatedTo actor: A,
    _ next: @escaping @Sendable (isolated A, Value) -> Void,
    error: @escaping @Sendable (isolated A, Failure) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeNext(isolatedTo: actor, next, error: error, completed: { _ in }, isolation: isolation)
  }
}

extension Signal where Failure == Never {
  /// Subscribes with a callback that runs isolated to `actor` for each value.
  ///
  /// Available when the signal cannot fail. Delivery, order and lifetime as in
  /// ``subscribeNext(isolatedTo:_:error:completed:isolation:)``.
  ///
  /// ```swift
  /// actor Counter {
  ///   var count = 0
  ///   func count(_ taps: Signal<Void, Never>) -> any Disposable {
  ///     taps.subscribeNext(isolatedTo: self) { counter, _ in counter.count += 1 }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the callback runs in; held until the subscription ends.
  ///   - next: Called with each value.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:scheduler] subscribeNext:]`.
  @inlinable
  @discardableResult
  public func subscribeNext<A: Actor>(
    isolatedTo actor: A, _ next: @escaping @Sendable (isolated A, Value) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeNext(isolatedTo: actor, next, error: { _, _ in }, completed: { _ in }, isolation: isolation)
  }

  /// Subscribes with callbacks that run isolated to `actor`, for each value and on completion.
  ///
  /// Available when the signal cannot fail. Delivery, order and lifetime as in
  /// ``subscribeNext(isolatedTo:_:error:completed:isolation:)``.
  ///
  /// ```swift
  /// uploads.subscribeNext(isolatedTo: library, { library, count in library.uploaded = count },
  ///                       completed: { library in library.isDone = true })
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the callbacks run in; held until the subscription ends.
  ///   - next: Called with each value.
  ///   - completed: Called on completion.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:scheduler] subscribeNext:completed:]`.
  @inlinable
  @discardableResult
  public func subscribeNext<A: Actor>(
    isolatedTo actor: A,
    _ next: @escaping @Sendable (isolated A, Value) -> Void,
    completed: @escaping @Sendable (isolated A) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeNext(isolatedTo: actor, next, error: { _, _ in }, completed: completed, isolation: isolation)
  }

  /// Binds each value into `actor`'s state with `set`, which runs isolated to the actor, until the signal
  /// completes, the binding is disposed, or the actor goes away.
  ///
  /// Key paths to actor-isolated properties cannot be formed, so the binding takes a setter that receives the
  /// actor `isolated`. Values are set in order, delivered as in ``subscribeNext(isolatedTo:_:error:completed:isolation:)``
  /// (at once when sent on the actor's executor with nothing waiting, else by one job per burst). Unlike a
  /// subscription, a binding holds the actor weakly, as RAC's `RAC(object, keyPath)` ends with its object.
  ///
  /// When the actor goes away, the binding ends:
  /// - at once if the actor is ``LifetimeProviding`` (a `nonisolated let lifetime = Lifetime()`): its lifetime
  ///   disposes the binding, which releases the source subscription and `set`;
  /// - otherwise when the next value arrives and finds the actor gone (Swift has no hook on an arbitrary actor's
  ///   deinitialisation). Until then the binding keeps its source subscription and what `set` captured.
  ///
  /// ```swift
  /// actor Thermostat: LifetimeProviding {
  ///   nonisolated let lifetime = Lifetime()  // the binding ends when the thermostat goes away
  ///   var target = 20.0
  ///   func follow(_ setting: Signal<Double, Never>) {
  ///     setting.bind(isolatedTo: self) { thermostat, value in thermostat.target = value }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor to update; held weakly.
  ///   - set: Stores a value into the actor's state.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The binding's disposable.
  /// - Note: ReactiveCocoa 2.5 `RAC(object, keyPath)` / `-setKeyPath:onObject:`, with an actor's setter in place
  ///   of a key path; RAC ended the binding on the object's deallocation through the Objective-C runtime.
  @inlinable
  @discardableResult
  public func bind<A: Actor>(
    isolatedTo actor: A, _ set: @escaping @Sendable (isolated A, Value) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    bindIsolated(to: actor, subscribingOnActor: isolation === actor, bound: nil, set)
  }

  /// The body of `bind(isolatedTo:…)`, with a bound or without: the actor held weakly, the binding ended with its
  /// lifetime if it provides one.
  @inlinable
  func bindIsolated<A: Actor>(
    to actor: A, subscribingOnActor: Bool, bound: DeliveryBound?, _ set: @escaping @Sendable (isolated A, Value) -> Void
  ) -> IsolatedDelivery<A, Value, Failure> {
    IsolatedDelivery.attach(
      self, to: .weak(WeakActor(actor)), executor: ActorExecutor(of: actor), mode: .atOnceOnExecutor,
      subscribingOnActor: subscribingOnActor, endingWith: (actor as? any LifetimeProviding)?.lifetime, bound: bound
    ) { actor, event in
      guard case .next(let value) = event else { return .stop }
      set(actor, value)
      return .proceed
    }
  }
}

extension Signal {
  /// Subscribes `handler` on the main actor, through the isolated-delivery engine: for `subscribeNext(onMainActor:…)`
  /// (always asynchronous, RAC's `-deliverOn:` of the main thread scheduler) and `subscribeNext(onMainThread:…)`
  /// (at once on the main queue with nothing waiting, RAC's `-deliverOnMainThread`) in the Interop module.
  /// `subscribingOnMainActor` says that the caller runs on the main actor (its `#isolation`).
  package func subscribeOnMainActor(
    atOnce: Bool, subscribingOnMainActor: Bool,
    next: @escaping @MainActor (Value) -> Void,
    error: @escaping @MainActor (Failure) -> Void,
    completed: @escaping @MainActor () -> Void
  ) -> any Disposable {
    subscribeOnMainActor(
      atOnce: atOnce, subscribingOnMainActor: subscribingOnMainActor, bound: nil, next: next, error: error,
      completed: completed)
  }

  /// `subscribeOnMainActor(atOnce:subscribingOnMainActor:next:error:completed:)` with at most `bufferingPolicy`'s
  /// limit of values waiting for the main actor (`DeliveryBound`); `caller` names the public API in the precondition
  /// message.
  package func subscribeOnMainActor(
    atOnce: Bool, subscribingOnMainActor: Bool, bufferingPolicy: SignalBufferingPolicy, caller: StaticString,
    next: @escaping @MainActor (Value) -> Void,
    error: @escaping @MainActor (Failure) -> Void,
    completed: @escaping @MainActor () -> Void
  ) -> IsolatedSubscription {
    let bound = DeliveryBound(bufferingPolicy, caller: caller)
    let delivery = subscribeOnMainActor(
      atOnce: atOnce, subscribingOnMainActor: subscribingOnMainActor, bound: bound, next: next, error: error,
      completed: completed)
    return IsolatedSubscription(delivery, bufferingPolicy: bufferingPolicy, bound: bound)
  }

  private func subscribeOnMainActor(
    atOnce: Bool, subscribingOnMainActor: Bool, bound: DeliveryBound?,
    next: @escaping @MainActor (Value) -> Void,
    error: @escaping @MainActor (Failure) -> Void,
    completed: @escaping @MainActor () -> Void
  ) -> any Disposable {
    let handler: @Sendable @MainActor (Event<Value, Failure>) -> Void = { event in
      switch event {
      case .next(let value): next(value)
      case .error(let failure): error(failure)
      case .completed: completed()
      }
    }
    // The main-actor isolation is erased once, here, not per event with `MainActor.assumeIsolated`: the engine
    // calls the handler only on the main actor (see `IsolatedDelivery.call(_:_:_:)`, which debug builds check).
    let erased = unsafeBitCast(handler, to: (@Sendable (Event<Value, Failure>) -> Void).self)
    return IsolatedDelivery.attach(
      self, to: .strong(MainActor.shared), executor: ActorExecutor(of: MainActor.shared),
      mode: atOnce ? .atOnceOnExecutor : .alwaysAsynchronous, subscribingOnActor: subscribingOnMainActor, bound: bound
    ) { _, event in
      erased(event)
      return event.isTerminating ? .stop : .proceed
    }
  }
}
