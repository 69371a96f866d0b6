import AsyncSignals

/// A main-actor observation built on `withObservationTracking` alone: what `Signal.observing(_:_:)` uses on Apple
/// platforms before 26, which have no `Observations`. (On Linux and from Apple's 26 releases the signal iterates
/// `Observations` instead; this loop is then used only by the tests, which run it against the same
/// expectations.)
///
/// It keeps `Observations`' timing: each evaluation runs in a main-actor job of its own, the first one after
/// `subscribe` returns. `withObservationTracking` calls its handler in the `willSet` of the first change, before
/// the value changes, so the handler does not read: it schedules the next evaluation, which runs once the job
/// that is changing the value has finished. Changes made in that job therefore make one value, read after all of
/// them. A handler runs at most once, so at most one evaluation is ever scheduled.
final class ObservationTrackingLoop<Value: Sendable>: Sendable {
  private let expression: ObservedExpression<Value>
  private let subscriber: any Subscriber<Value, Never>
  /// Whether the next evaluation is due, counted for `TestScheduler.settle()`; ended when the subscription is.
  private let due = DueEvaluation()

  private init(_ expression: ObservedExpression<Value>, _ subscriber: any Subscriber<Value, Never>) {
    self.expression = expression
    self.subscriber = subscriber
  }

  /// A signal whose subscriptions each run a loop over `expression`.
  static func signal(_ expression: ObservedExpression<Value>) -> Signal<Value, Never> {
    Signal.create { subscriber in
      let loop = ObservationTrackingLoop(expression, subscriber)
      loop.scheduleEvaluation()
      // The subscription holds the loop; pending evaluations and Observation's handlers hold it weakly.
      return ActionDisposable { loop.due.end() }
    }
  }

  /// Makes the next evaluation due, and schedules it in a main-actor job of its own.
  private func scheduleEvaluation() {
    due.markDue()
    MainActorJobs.enqueueOnMainActor { [weak self] in self?.evaluate() }
  }

  @MainActor
  private func evaluate() {
    due.evaluating()
    defer { due.sent() }  // read and sent in this one job
    guard !due.hasEnded else { return }
    let reading = expression.read(
      onChange: { [weak self] in self?.scheduleEvaluation() },
      onGone: { [weak self] in self?.scheduleEvaluation() })
    // In the counted job that runs it, so the work its value starts counts in that job's epoch.
    do {
      switch reading {
      case .gone:
        subscriber.sendCompleted()
      case .value(let value, let tracked):
        subscriber.sendNext(value)
        // Nothing Observation tracks was read: no change will ever ask for this value again.
        if !tracked { subscriber.sendCompleted() }
      }
    }
  }
}
