/// Where a time operator runs its timers: the scheduler it was given, or — when it was given none — the rule of
/// ReactiveCocoa 2.5's `-throttle:` and `-delay:`.
///
/// RAC's rule: each timer goes to the scheduler that is current on the thread where the event arrived (the main
/// queue's, inside a scheduler's block that scheduler), or, where none is current, to a private serial
/// background scheduler made for the subscription. The private scheduler is made on first use, so that a
/// subscription whose events always arrive on a scheduler never creates a queue.
@usableFromInline
struct TimerScheduler: Sendable {
  @usableFromInline
  let given: (any Scheduler)?
  /// The private background scheduler of one subscription, made on first use.
  @usableFromInline
  let fallback: LockedState<QueueScheduler?>?  // guarded by: its own lock
  @usableFromInline
  let name: String

  /// - Parameters:
  ///   - given: The scheduler passed to the operator, or `nil` for RAC's rule.
  ///   - name: The label of the private scheduler, should one be needed.
  @inlinable
  init(_ given: (any Scheduler)?, name: String) {
    self.given = given
    self.fallback = given == nil ? LockedState(nil) : nil
    self.name = name
  }

  /// The scheduler for a timer started now. Call it on the thread where the event arrived.
  @inlinable
  func resolve() -> any Scheduler {
    if let given { return given }
    if let current = CurrentScheduler.scheduler { return current }
    guard let fallback else { preconditionFailure("TimerScheduler: made without a scheduler and without a fallback") }
    return fallback.withLock { scheduler in
      if let scheduler { return scheduler }
      let made = QueueScheduler(name: name)
      scheduler = made
      return made
    }
  }
}
