extension Signal {
  /// Sends every value, and the completion, `interval` later; a failure is sent at once.
  ///
  /// Each value and the completion are scheduled `interval` after they arrive and keep their order. A failure
  /// is not delayed: it is sent as soon as it arrives, and the values still waiting are dropped. Disposing the
  /// result disposes the source and cancels everything still waiting.
  ///
  /// ```swift
  /// let toast = messages.delay(.seconds(2), on: .main)  // each message two seconds after it was sent
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long each value and the completion wait; must not be negative (zero means "on the
  ///     scheduler's next turn").
  ///   - scheduler: The scheduler that times and sends the delayed events. `nil` (the default) follows RAC's
  ///     `-delay:`: the scheduler current where each event arrives (the main queue's, inside a scheduler's
  ///     block that scheduler), otherwise a private serial background scheduler made for the subscription.
  ///     Not the immediate scheduler, which cannot wait without blocking.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal with the same events, values and completion `interval` later.
  /// - Note: ReactiveCocoa 2.5 `-delay:`, with the scheduler that RAC always picked itself as an optional
  ///   argument; the interval is a `Duration`.
  @inlinable
  public func delay(
    _ interval: Duration, on scheduler: (any Scheduler)? = nil, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, Failure> {
    precondition(interval >= .zero, "delay(_:on:): interval must not be negative", file: file, line: line)
    precondition(
      scheduler !== ImmediateScheduler.shared, "delay(_:on:): scheduler must not be the immediate scheduler",
      file: file, line: line)
    return AnonymousSignal { observer in
      DeliverStorage.attach(
        self, route: .delay(interval, TimerScheduler(scheduler, name: "AsyncSignals.delay")), observer: observer)
    }
  }
}
