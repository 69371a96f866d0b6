import AsyncSignals

/// One awaited result: owns the lock over its `AwaitStateMachine`, subscribes, and performs every effect
/// (resuming the consumer, disposing the subscription) with the lock released.
final class AwaitStorage<Value: Sendable, Failure: Error, Partial: Sendable>: Subscriber, Sendable {
  typealias StateMachine = AwaitStateMachine<Value, Failure, Partial>

  private let state: LockedState<StateMachine>  // guards every decision of the wait
  /// Set when the awaiting task runs async work a `TestScheduler` tracks: while the task is suspended here, it is
  /// idle, and `settle()` does not wait for it. Made in the awaiting task (the storage is made where it awaits).
  private let trackedWait = TrackedAsyncWait.ofCurrentTask()

  init(initial: Partial, fold: @escaping StateMachine.Fold) {
    state = LockedState(StateMachine(initial: initial, fold: fold))
  }

  /// Subscribes to `signal` in the caller's isolation and waits for the outcome. Cancelling the calling task
  /// disposes the subscription and returns what has arrived so far; a task cancelled before the call does
  /// not subscribe at all.
  func run(_ signal: Signal<Value, Failure>, isolation actor: isolated (any Actor)?) async -> Result<Partial, Failure> {
    if !Task.isCancelled {
      signal.subscribe(self)
    }
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: actor) { continuation in
          if case .resume(let waiter, let outcome) = state.withLock({ $0.wait(with: continuation) }) {
            waiter.resume(returning: outcome)
          } else {
            trackedWait?.begin()  // suspended; if the outcome has already come, `end()` came first and this is nothing
          }
        }
      },
      onCancel: { self.perform(self.state.withLock { $0.cancelled() }) },
      isolation: actor)
  }

  private func perform(_ action: StateMachine.FinishAction) {
    guard case .finish(let waiter, let outcome, let subscription) = action else { return }
    subscription?.dispose()
    if let waiter {
      trackedWait?.end()  // before the task resumes: from here on it is running, not idle
      waiter.resume(returning: outcome)
    }
  }

  // MARK: Subscriber

  func didSubscribe(with disposable: any Disposable) {
    state.withLock { $0.receivedSubscription(disposable) }?.dispose()
  }

  func sendNext(_ value: Value) {
    perform(state.withLock { $0.receivedValue(value) })
  }

  func sendError(_ error: Failure) {
    perform(state.withLock { $0.receivedTerminal(error) })
  }

  func sendCompleted() {
    perform(state.withLock { $0.receivedTerminal(nil) })
  }
}
