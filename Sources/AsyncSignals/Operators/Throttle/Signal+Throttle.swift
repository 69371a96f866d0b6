extension Signal {
  /// Sends a value only once `interval` has passed without a newer value: of a burst, the latest wins.
  ///
  /// Each value replaces the one waiting, if any, and restarts the wait. A value is sent when its interval
  /// has passed with no newer value, on the scheduler that timed it. Completion is forwarded at once, sending
  /// the waiting value first, as RAC flushes it; a failure is forwarded at once and the waiting value is
  /// dropped. Disposing the result disposes the source and cancels the pending timer.
  ///
  /// ```swift
  /// let queries = searchText.throttle(.milliseconds(300), on: .main)
  /// // "s", "sw", "swi" typed within 300 ms: only "swi" is sent, 300 ms after it was typed
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long a value must stay the latest before it is sent; must not be negative (zero
  ///     means "on the scheduler's next turn", as in RAC's own tests).
  ///   - scheduler: The scheduler that times the values, and that sends them. `nil` (the default) follows
  ///     RAC's `-throttle:`: the scheduler current where each value arrives (the main queue's, inside a
  ///     scheduler's block that scheduler), otherwise a private serial background scheduler made for the
  ///     subscription. Not the immediate scheduler, which cannot wait without blocking.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the values that stayed the latest for `interval`.
  /// - Note: ReactiveCocoa 2.5 `-throttle:`, with the scheduler that RAC always picked itself as an optional
  ///   argument; the interval is a `Duration`.
  @inlinable
  public func throttle(
    _ interval: Duration, on scheduler: (any Scheduler)? = nil, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, Failure> {
    throttle(interval, on: scheduler, operator: "throttle(_:on:)", file: file, line: line) { _ in true }
  }

  /// Throttles only the values that pass `predicate`; the others are sent at once and cancel the value
  /// waiting, if any.
  ///
  /// A value that passes behaves as in ``throttle(_:on:file:line:)``. A value that does not is sent at once, and the
  /// throttled value waiting before it is dropped: it is not the latest any more. Completion sends the waiting
  /// value, then completes; a failure drops it. Disposing the result disposes the source and cancels the
  /// pending timer.
  ///
  /// ```swift
  /// // Throttle typing, but let an emptied field through at once.
  /// let queries = text.throttle(.milliseconds(300), on: .main) { !$0.isEmpty }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long a throttled value must stay the latest before it is sent; must not be negative.
  ///   - scheduler: The scheduler that times the throttled values, as in ``throttle(_:on:file:line:)``: `nil` means
  ///     RAC's current-or-private-background rule; not the immediate scheduler.
  ///   - predicate: Whether a value is throttled. Called once per value, one value at a time, on the thread
  ///     the value arrives on.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the unthrottled values and of the throttled values that stayed the latest.
  /// - Note: ReactiveCocoa 2.5 `-throttle:valuesPassingTest:`, with the scheduler as an optional argument.
  @inlinable
  public func throttle(
    _ interval: Duration, on scheduler: (any Scheduler)? = nil,
    valuesPassing predicate: @escaping @Sendable (Value) -> Bool, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, Failure> {
    throttle(interval, on: scheduler, operator: "throttle(_:on:valuesPassing:)", file: file, line: line, predicate)
  }

  /// Sends a value only once `interval` has passed without a newer value: ``throttle(_:on:file:line:)`` under the
  /// name that Combine, ReactiveSwift and RxSwift give it.
  ///
  /// The same operator as ``throttle(_:on:file:line:)`` (one engine, one behaviour): each value replaces the one
  /// waiting and restarts the wait; a value is sent, on the scheduler that timed it, once it has been the latest for
  /// `interval`. Completion sends the waiting value first, then completes at once; a failure is forwarded at once and
  /// drops the waiting value. Disposing the result disposes the source and cancels the pending timer.
  ///
  /// ```swift
  /// let queries = searchText.debounce(.milliseconds(300), on: .main)
  /// // "s", "sw", "swi" typed within 300 ms: only "swi" is sent, 300 ms after it was typed
  /// ```
  ///
  /// To send the first value at once and then at most one per interval, use ``throttleLatest(_:on:file:line:)`` or
  /// ``throttleFirst(_:on:file:line:)``.
  ///
  /// - Parameters:
  ///   - interval: How long a value must stay the latest before it is sent; must not be negative.
  ///   - scheduler: The scheduler that times the values, and that sends them; `nil` follows RAC's rule, as in
  ///     ``throttle(_:on:file:line:)``. Not the immediate scheduler, which cannot wait without blocking.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the values that stayed the latest for `interval`.
  /// - Note: ReactiveCocoa 2.5 `-throttle:` under another name: Combine's `debounce(for:scheduler:)`, ReactiveSwift's
  ///   `debounce(_:on:)` and RxSwift's `debounce(_:scheduler:)`, which is what RAC called `throttle`. At completion
  ///   the waiting value is sent first, as RAC and RxSwift do; Combine drops it, and so does ReactiveSwift unless told
  ///   `discardWhenCompleted: false`.
  @inlinable
  public func debounce(
    _ interval: Duration, on scheduler: (any Scheduler)? = nil, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, Failure> {
    throttle(interval, on: scheduler, operator: "debounce(_:on:)", file: file, line: line) { _ in true }
  }

  @inlinable
  func throttle(
    _ interval: Duration, on scheduler: (any Scheduler)?, operator name: String, file: StaticString, line: UInt,
    _ predicate: @escaping @Sendable (Value) -> Bool
  ) -> Signal<Value, Failure> {
    precondition(interval >= .zero, "\(name): interval must not be negative", file: file, line: line)
    precondition(
      scheduler !== ImmediateScheduler.shared, "\(name): scheduler must not be the immediate scheduler",
      file: file, line: line)
    return AnonymousSignal { observer in
      ThrottleStorage.attach(
        self, interval: interval, timers: TimerScheduler(scheduler, name: "AsyncSignals.throttle"),
        shouldThrottle: predicate, observer: observer)
    }
  }
}
