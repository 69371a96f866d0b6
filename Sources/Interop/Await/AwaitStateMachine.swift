import AsyncSignals

/// What one awaited result (`first()`, `last()`, `toArray()`, `waitUntilCompleted()`) must do for each
/// input. Pure: no locks, no callouts. `AwaitStorage` runs it under its lock and acts with the lock released.
///
/// Values are folded into `partial` as they arrive — no buffer, no suspension per value. The outcome is
/// decided once: by the fold (`first()` is done at the first value), by the signal's terminal event, or by
/// cancellation, which ends the wait as if the signal had completed at that moment. The consumer suspends
/// once, and is resumed with the outcome.
struct AwaitStateMachine<Value: Sendable, Failure: Error, Partial: Sendable>: Sendable {
  typealias Outcome = Result<Partial, Failure>
  typealias Waiter = CheckedContinuation<Outcome, Never>
  /// Folds a value into the partial result; returns whether the result is complete.
  typealias Fold = @Sendable (inout Partial, Value) -> Bool

  enum FinishAction {
    case none
    /// Resume the waiter (if it is already waiting) with the outcome, and dispose the subscription (if any),
    /// lock released.
    case finish(Waiter?, Outcome, (any Disposable)?)
  }

  enum WaitAction {
    case none
    case resume(Waiter, Outcome)
  }

  private let fold: Fold
  private var partial: Partial
  private var waiter: Waiter?
  private var subscription: (any Disposable)?
  /// Decided, perhaps before the consumer started waiting.
  private var outcome: Outcome?

  init(initial: Partial, fold: @escaping Fold) {
    self.partial = initial
    self.fold = fold
  }

  /// The subscription's disposable arrived (before any event). Returns it if it must be disposed at once.
  mutating func receivedSubscription(_ disposable: any Disposable) -> (any Disposable)? {
    guard outcome == nil else { return disposable }
    subscription = disposable
    return nil
  }

  mutating func receivedValue(_ value: Value) -> FinishAction {
    guard outcome == nil, fold(&partial, value) else { return .none }
    return decide(.success(partial))
  }

  /// The signal failed (`failure`) or completed (`nil`).
  mutating func receivedTerminal(_ failure: Failure?) -> FinishAction {
    guard outcome == nil else { return .none }
    return decide(failure.map { .failure($0) } ?? .success(partial))
  }

  /// The awaiting task was cancelled: the result is what has arrived so far.
  mutating func cancelled() -> FinishAction {
    guard outcome == nil else { return .none }
    return decide(.success(partial))
  }

  /// The consumer is ready to suspend.
  mutating func wait(with continuation: Waiter) -> WaitAction {
    if let outcome { return .resume(continuation, outcome) }
    precondition(waiter == nil, "AwaitStateMachine: waited twice")
    waiter = continuation
    return .none
  }

  private mutating func decide(_ outcome: Outcome) -> FinishAction {
    self.outcome = outcome
    let waiter = self.waiter
    let subscription = self.subscription
    self.waiter = nil
    self.subscription = nil
    return .finish(waiter, outcome, subscription)
  }
}
