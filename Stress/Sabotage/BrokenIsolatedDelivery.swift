import AsyncSignals

/// The broken twin of `subscribeNext(isolatedTo:)` (`--sabotage IsolatedDelivery`), the bridge a user writes by
/// hand: each value starts its own `Task` that hops onto the actor. The tasks are not ordered with each other, so
/// values overtake each other; and disposal is checked when a value is sent, not when it is delivered, so the
/// tasks already started deliver after `dispose()` has returned.
enum BrokenIsolatedDelivery {
  static let description =
    "a Task per event that hops onto the actor, checking disposal when the value is sent, not when delivered"

  /// Subscribes; `inFlight` counts the tasks not finished yet (the scenario waits for them before it checks).
  static func subscribeNext<Value: Sendable, A: Actor>(
    _ signal: Signal<Value, StressFailure>, isolatedTo actor: A, inFlight: Tally,
    _ next: @escaping @Sendable (isolated A, Value) -> Void
  ) -> any Disposable {
    let disposed = Flag()
    let upstream = signal.subscribeNext(
      { value in
        guard !disposed.isSet else { return }
        inFlight.increment()
        Task {  // BUG: one task per event, unordered; disposal is not checked again on the actor
          await next(actor, value)
          inFlight.decrement()
        }
      }, error: { _ in })
    return ActionDisposable {
      disposed.set()
      upstream.dispose()
    }
  }
}
