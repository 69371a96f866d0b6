// The rate-limiting throttles of Combine and RxSwift, beside RAC's `throttle` (which is their `debounce`): the first
// value at once, then at most one per interval. Both share one engine (RateLimitStateMachine, RateLimitStorage);
// `throttleLatest` keeps the latest value of each interval for its end, `throttleFirst` drops what an interval
// receives.

extension Signal {
  /// Sends the first value at once, then at most one value per `interval`: the latest one received during each
  /// interval, at its end.
  ///
  /// A value that arrives when no value has been sent for `interval` is sent at once, on the thread it arrived on, and
  /// starts an interval. Values that arrive during it are not sent then: the latest of them is kept and sent when the
  /// interval ends, on the scheduler that timed it, which starts the next interval. An interval that ends with no value
  /// kept ends the throttling until the next value. So no two values are sent less than `interval` apart, and the
  /// last value of a burst is never lost. The intervals are the scheduler's own timers: on a ``TestScheduler`` a value
  /// kept is sent exactly `interval` after the value before it.
  ///
  /// Completion is sent at once when no value is kept; otherwise it waits for the interval's end and follows the value
  /// kept, so that the rate holds to the end. A failure is sent at once, and the value kept, if any, is dropped.
  /// Disposing the result disposes the source and cancels the interval's timer.
  ///
  /// ```swift
  /// let shown = progress.throttleLatest(.milliseconds(100), on: .main)
  /// // at most ten updates a second: the first at once, then the latest of each tenth of a second
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The least time between two values sent; must not be negative (zero lets through the latest of the
  ///     values that arrive before the scheduler's next turn).
  ///   - scheduler: The scheduler that times the intervals and sends the values kept for their end. `nil` (the
  ///     default) follows RAC's rule for `-throttle:`: the scheduler current where the value that starts an interval
  ///     arrives, otherwise a private serial background scheduler made for the subscription. Not the immediate
  ///     scheduler, which cannot wait without blocking.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of at most one value per `interval`.
  /// - Note: No ReactiveCocoa 2.5 counterpart: RAC's `-throttle:` is ``throttle(_:on:file:line:)`` (everybody
  ///   else's `debounce`). RxSwift's `throttle(_:latest: true, scheduler:)` and Combine's
  ///   `throttle(for:scheduler:latest: true)`, which also hold the completion back behind the value kept; Combine
  ///   sends even the first value on the scheduler, later. ReactiveSwift's `throttle(_:on:)` drops the value kept
  ///   at completion.
  @inlinable
  public func throttleLatest(
    _ interval: Duration, on scheduler: (any Scheduler)? = nil, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, Failure> {
    rateLimit(interval, on: scheduler, keepsLatest: true, operator: "throttleLatest(_:on:)", file: file, line: line)
  }

  /// Sends the first value at once, then drops every value that arrives less than `interval` after a value sent.
  ///
  /// A value that arrives when no value has been sent for `interval` is sent at once, on the thread it arrived on, and
  /// starts an interval; the values that arrive during it are dropped. When the interval ends — a timer on the
  /// scheduler — the next value is sent at once again. So no two values are sent less than `interval` apart, and each
  /// value sent is the first of its burst. On a ``TestScheduler`` a value that arrives exactly `interval` after the
  /// one sent before it is sent.
  ///
  /// Completion and failure are sent at once. Disposing the result disposes the source and cancels the interval's
  /// timer.
  ///
  /// ```swift
  /// let purchases = buttonTaps.throttleFirst(.seconds(1), on: .main)
  /// // a double tap buys once: the second tap, within a second of the first, is dropped
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The least time between two values sent; must not be negative.
  ///   - scheduler: The scheduler that times the intervals. `nil` (the default) follows RAC's rule for `-throttle:`,
  ///     as in ``throttleLatest(_:on:file:line:)``. Not the immediate scheduler, which cannot wait without blocking.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the first value of each burst, at most one per `interval`.
  /// - Note: No ReactiveCocoa 2.5 counterpart. RxSwift's `throttle(_:latest: false, scheduler:)` (RxJava's
  ///   `throttleFirst`). Combine's `throttle(for:scheduler:latest: false)` differs: it keeps the first value of each
  ///   interval and sends it at the interval's end, where this one drops it.
  @inlinable
  public func throttleFirst(
    _ interval: Duration, on scheduler: (any Scheduler)? = nil, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, Failure> {
    rateLimit(interval, on: scheduler, keepsLatest: false, operator: "throttleFirst(_:on:)", file: file, line: line)
  }

  @inlinable
  func rateLimit(
    _ interval: Duration, on scheduler: (any Scheduler)?, keepsLatest: Bool, operator name: String,
    file: StaticString, line: UInt
  ) -> Signal<Value, Failure> {
    precondition(interval >= .zero, "\(name): interval must not be negative", file: file, line: line)
    precondition(
      scheduler !== ImmediateScheduler.shared, "\(name): scheduler must not be the immediate scheduler",
      file: file, line: line)
    let label = keepsLatest ? "throttleLatest" : "throttleFirst"
    return AnonymousSignal(nameSource: derivedName(label)) { observer in
      RateLimitStorage.attach(
        self, interval: interval, timers: TimerScheduler(scheduler, name: "AsyncSignals.\(label)"),
        keepsLatest: keepsLatest, observer: observer)
    }
  }
}
