import AsyncSignals

// Main-actor delivery the compiler checks: the callbacks are `@MainActor` closures, so they may touch
// main-actor state (views, view models) without `MainActor.assumeIsolated` or a `Task` in user code. The
// events travel through the core's isolated-delivery engine (the one behind `subscribeNext(isolatedTo:…)`) in
// its always-asynchronous mode: in order, one main-queue job per burst, and never before `subscribeNext` or
// `sendNext` returns, even when sent on the main queue, as RAC's `-deliverOn:` does. Disposing the subscription
// on the main actor stops delivery at once: events already queued but not yet delivered are discarded.
// (`subscribeNext(isolatedTo: MainActor.shared, …)` is the at-once form.)

extension Signal {
  /// Subscribes with `@MainActor` closures for values, the failure and completion.
  ///
  /// Each event is delivered on the main actor, asynchronously (even when sent there), in the order sent; the
  /// closures run one at a time and are released once the terminal event has been delivered or the
  /// subscription is disposed. A burst of events costs one main-queue job, not one per event. For delivery at
  /// once when the sender is already on the main queue, use `subscribeNext(isolatedTo: MainActor.shared, …)`.
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
    subscribeOnMainActorAsynchronously { event in
      switch event {
      case .next(let value): next(value)
      case .error(let failure): error(failure)
      case .completed: completed()
      }
    }
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
