import AsyncSignals

// Main-actor delivery the compiler checks: the callbacks are `@MainActor` closures, so they may touch
// main-actor state (views, view models) without `MainActor.assumeIsolated` or a `Task` in user code. The
// events travel through the core's isolated-delivery engine (the one behind `subscribeNext(isolatedTo:…)`), in
// order, one main-queue job per burst (of at most one budget of callbacks), in one of two modes:
// - `subscribeNext(onMainActor:…)`: always asynchronous, never before `subscribeNext` or `sendNext` returns, even
//   when sent on the main queue, as RAC's `-deliverOn:` of its main thread scheduler;
// - `subscribeNext(onMainThread:…)`: at once when sent on the main queue while nothing is waiting, queued
//   otherwise, as RAC's `-deliverOnMainThread` (and this library's `deliverOnMainThread()`) do.
// Disposing the subscription on the main actor stops delivery at once: events already queued but not yet
// delivered are discarded. `subscribeNext(isolatedTo: MainActor.shared, …)` cannot serve `@MainActor` code: its
// callback's `isolated MainActor` parameter does not make the closure main-actor isolated, so main-actor state
// is out of its reach.

extension Signal {
  /// Subscribes with `@MainActor` closures for values, the failure and completion.
  ///
  /// Each event is delivered on the main actor, asynchronously (even when sent there), in the order sent; the
  /// closures run one at a time and are released once the terminal event has been delivered or the
  /// subscription is disposed. A burst of events costs one main-queue job, not one per event. For delivery at
  /// once when the sender is already on the main queue, use ``subscribeNext(onMainThread:error:completed:isolation:)``.
  /// Disposing from the main actor means no closure is called afterwards: events
  /// already on their way are discarded.
  ///
  /// ```swift
  /// @MainActor final class ProfileScreen {
  ///   var title = ""
  ///   var subscription: (any Disposable)?
  ///   func bind(_ profile: Signal<Profile, APIError>) {
  ///     subscription = profile.subscribeNext(
  ///       onMainActor: { self.title = $0.name },  // checked by the compiler: main-actor state
  ///       error: { self.title = "failed: \($0)" },
  ///       completed: {})
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value.
  ///   - error: Called on the main actor with the failure.
  ///   - completed: Called on the main actor on completion.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:RACScheduler.mainThreadScheduler] subscribeNext:error:completed:]`,
  ///   with the main-thread requirement checked at compile time.
  @discardableResult
  public func subscribeNext(
    onMainActor next: @escaping @MainActor (Value) -> Void,
    error: @escaping @MainActor (Failure) -> Void,
    completed: @escaping @MainActor () -> Void
  ) -> any Disposable {
    subscribeOnMainActor(
      atOnce: false, subscribingOnMainActor: false, next: next, error: error, completed: completed)
  }

  /// Subscribes with `@MainActor` closures for values and the failure; completion ends the subscription
  /// silently.
  ///
  /// Delivery as in ``subscribeNext(onMainActor:error:completed:)``.
  ///
  /// ```swift
  /// search.subscribeNext(onMainActor: { table.show($0) }, error: { banner.show($0) })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value.
  ///   - error: Called on the main actor with the failure.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:RACScheduler.mainThreadScheduler] subscribeNext:error:]`.
  @discardableResult
  public func subscribeNext(
    onMainActor next: @escaping @MainActor (Value) -> Void, error: @escaping @MainActor (Failure) -> Void
  ) -> any Disposable {
    subscribeNext(onMainActor: next, error: error, completed: {})
  }
}

extension Signal where Failure == Never {
  /// Subscribes with a `@MainActor` closure for values.
  ///
  /// Available when the signal cannot fail. Delivery as in ``subscribeNext(onMainActor:error:completed:)``.
  ///
  /// ```swift
  /// ticks.subscribeNext(onMainActor: { clockLabel.text = "\($0)" })
  /// ```
  ///
  /// - Parameter next: Called on the main actor with each value.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:RACScheduler.mainThreadScheduler] subscribeNext:]`.
  @discardableResult
  public func subscribeNext(onMainActor next: @escaping @MainActor (Value) -> Void) -> any Disposable {
    subscribeNext(onMainActor: next, error: { _ in }, completed: {})
  }

  /// Subscribes with `@MainActor` closures for values and completion.
  ///
  /// Available when the signal cannot fail. Delivery as in ``subscribeNext(onMainActor:error:completed:)``.
  ///
  /// ```swift
  /// progress.subscribeNext(onMainActor: { bar.value = $0 }, completed: { bar.isHidden = true })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value.
  ///   - completed: Called on the main actor on completion.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:RACScheduler.mainThreadScheduler] subscribeNext:completed:]`.
  @discardableResult
  public func subscribeNext(
    onMainActor next: @escaping @MainActor (Value) -> Void, completed: @escaping @MainActor () -> Void
  ) -> any Disposable {
    subscribeNext(onMainActor: next, error: { _ in }, completed: completed)
  }
}

extension Signal {
  /// Subscribes with `@MainActor` closures for values, the failure and completion, delivered at once when sent on
  /// the main queue with nothing waiting, as RAC's `-deliverOnMainThread` does.
  ///
  /// A value sent on the main queue (the main actor's executor) while no earlier event of this subscription is
  /// waiting or being delivered is delivered before `sendNext` returns; any other event is queued and delivered on
  /// the main actor by one main-queue job per burst, in the order sent, never ahead of an earlier one. A value
  /// sent from inside one of these closures is delivered after that closure returns. Subscribing from the main
  /// actor to a signal that sends at once, such as a `BehaviorSubject`, delivers its values before
  /// `subscribeNext` returns. The closures run one at a time, are checked by the compiler as main-actor code,
  /// and are released once the terminal event has been delivered or the subscription is disposed; disposing on
  /// the main actor means no closure is called afterwards. For delivery that is always later, even on the main
  /// queue, use ``subscribeNext(onMainActor:error:completed:)``.
  ///
  /// ```swift
  /// @MainActor final class SearchModel {
  ///   var results: [String] = []
  ///   var failure: String?
  ///   var subscription: (any Disposable)?
  ///   func follow(_ searches: Signal<[String], APIError>) {
  ///     subscription = searches.subscribeNext(
  ///       onMainThread: { self.results = $0 },  // main-actor state, checked by the compiler
  ///       error: { self.failure = "\($0)" },
  ///       completed: {})
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value.
  ///   - error: Called on the main actor with the failure.
  ///   - completed: Called on the main actor on completion.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOnMainThread] subscribeNext:error:completed:]`, with the
  ///   main-thread requirement checked at compile time.
  @discardableResult
  public func subscribeNext(
    onMainThread next: @escaping @MainActor (Value) -> Void,
    error: @escaping @MainActor (Failure) -> Void,
    completed: @escaping @MainActor () -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeOnMainActor(
      atOnce: true, subscribingOnMainActor: isolation === MainActor.shared, next: next, error: error,
      completed: completed)
  }

  /// Subscribes with `@MainActor` closures for values and the failure, delivered at once when sent on the main
  /// queue with nothing waiting; completion ends the subscription silently.
  ///
  /// Delivery as in ``subscribeNext(onMainThread:error:completed:isolation:)``.
  ///
  /// ```swift
  /// search.subscribeNext(onMainThread: { table.show($0) }, error: { banner.show($0) })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value.
  ///   - error: Called on the main actor with the failure.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOnMainThread] subscribeNext:error:]`.
  @discardableResult
  public func subscribeNext(
    onMainThread next: @escaping @MainActor (Value) -> Void, error: @escaping @MainActor (Failure) -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeNext(onMainThread: next, error: error, completed: {}, isolation: isolation)
  }
}

extension Signal where Failure == Never {
  /// Subscribes with a `@MainActor` closure for values, delivered at once when sent on the main queue with
  /// nothing waiting.
  ///
  /// Available when the signal cannot fail. Delivery as in ``subscribeNext(onMainThread:error:completed:isolation:)``.
  ///
  /// ```swift
  /// @MainActor final class Clock {
  ///   var label = ""
  ///   func show(_ ticks: Signal<Int, Never>) -> any Disposable {
  ///     ticks.subscribeNext(onMainThread: { self.label = "\($0)" })
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOnMainThread] subscribeNext:]`.
  @discardableResult
  public func subscribeNext(
    onMainThread next: @escaping @MainActor (Value) -> Void, isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeNext(onMainThread: next, error: { _ in }, completed: {}, isolation: isolation)
  }

  /// Subscribes with `@MainActor` closures for values and completion, delivered at once when sent on the main
  /// queue with nothing waiting.
  ///
  /// Available when the signal cannot fail. Delivery as in ``subscribeNext(onMainThread:error:completed:isolation:)``.
  ///
  /// ```swift
  /// progress.subscribeNext(onMainThread: { bar.value = $0 }, completed: { bar.isHidden = true })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value.
  ///   - completed: Called on the main actor on completion.
  ///   - isolation: The caller's isolation; leave it to its default.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOnMainThread] subscribeNext:completed:]`.
  @discardableResult
  public func subscribeNext(
    onMainThread next: @escaping @MainActor (Value) -> Void, completed: @escaping @MainActor () -> Void,
    isolation: isolated (any Actor)? = #isolation
  ) -> any Disposable {
    subscribeNext(onMainThread: next, error: { _ in }, completed: completed, isolation: isolation)
  }
}

extension Signal {
  /// Subscribes with `@MainActor` closures for values, the failure and completion, with at most
  /// `bufferingPolicy`'s limit of values waiting for the main actor.
  ///
  /// Delivery as in ``subscribeNext(onMainActor:error:completed:)`` (always asynchronous, in order, one main-queue
  /// job per burst); the bound as in `subscribeNext(isolatedTo:bufferingPolicy:_:error:completed:isolation:)`:
  /// `.bounded(n)` pauses the sources that can pause and counts what the others send past `n` in
  /// `overflowCount`; `.bufferingNewest(n)` keeps the latest `n` waiting and counts the dropped ones in
  /// `droppedCount`, so a fast feed never builds a backlog on the main queue. The terminal event is never dropped.
  /// A value waiting for the main actor counts as work in progress for `TestScheduler.settle()`; a source paused for
  /// room does not.
  ///
  /// ```swift
  /// @MainActor final class TickerScreen {
  ///   var price = 0.0
  ///   var status = ""
  ///   var subscription: IsolatedSubscription?
  ///   func follow(_ prices: Signal<Double, APIError>) {
  ///     subscription = prices.subscribeNext(
  ///       onMainActor: { self.price = $0 }, error: { self.status = "\($0)" }, completed: { self.status = "closed" },
  ///       bufferingPolicy: .bufferingNewest(1))  // the latest price at each turn of the main actor
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value that is not dropped.
  ///   - error: Called on the main actor with the failure.
  ///   - completed: Called on the main actor on completion.
  ///   - bufferingPolicy: How many values may wait for the main actor, and what happens past that.
  /// - Returns: The subscription, with its counts.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:RACScheduler.mainThreadScheduler] subscribeNext:error:completed:]`,
  ///   which queues every value; the bound is this library's.
  @discardableResult
  public func subscribeNext(
    onMainActor next: @escaping @MainActor (Value) -> Void,
    error: @escaping @MainActor (Failure) -> Void,
    completed: @escaping @MainActor () -> Void,
    bufferingPolicy: SignalBufferingPolicy
  ) -> IsolatedSubscription {
    subscribeOnMainActor(
      atOnce: false, subscribingOnMainActor: false, bufferingPolicy: bufferingPolicy,
      caller: "subscribeNext(onMainActor:bufferingPolicy:)", next: next, error: error, completed: completed)
  }
}

extension Signal where Failure == Never {
  /// Subscribes with a `@MainActor` closure for values, with at most `bufferingPolicy`'s limit of values waiting
  /// for the main actor.
  ///
  /// Available when the signal cannot fail. Delivery and bound as in
  /// ``subscribeNext(onMainActor:error:completed:bufferingPolicy:)``.
  ///
  /// ```swift
  /// @MainActor final class CompassView {
  ///   var heading = 0.0
  ///   var subscription: IsolatedSubscription?
  ///   func follow(_ headings: Signal<Double, Never>) {
  ///     subscription = headings.subscribeNext(
  ///       onMainActor: { self.heading = $0 }, bufferingPolicy: .bufferingNewest(1))
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called on the main actor with each value that is not dropped.
  ///   - bufferingPolicy: How many values may wait for the main actor, and what happens past that.
  /// - Returns: The subscription, with its counts.
  /// - Note: ReactiveCocoa 2.5 `[[signal deliverOn:RACScheduler.mainThreadScheduler] subscribeNext:]`, with a bound.
  @discardableResult
  public func subscribeNext(
    onMainActor next: @escaping @MainActor (Value) -> Void, bufferingPolicy: SignalBufferingPolicy
  ) -> IsolatedSubscription {
    subscribeNext(onMainActor: next, error: { _ in }, completed: {}, bufferingPolicy: bufferingPolicy)
  }
}
