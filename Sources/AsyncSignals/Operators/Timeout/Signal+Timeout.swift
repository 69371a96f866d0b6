extension Signal {
  /// Fails with `error()` unless the signal terminates within `interval` of the subscription.
  ///
  /// Until then every event passes through. The timer starts when the result is subscribed to, before the
  /// source is; if the source completes or fails first, the timer is cancelled. When the time is up, the
  /// source is disposed and the result fails on `scheduler`. Disposing the result disposes the source and
  /// cancels the timer.
  ///
  /// ```swift
  /// let reply = request.timeout(.seconds(30), on: .main, raising: URLError(.timedOut))  // Signal<String, URLError>
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long the source has to terminate; must not be negative.
  ///   - scheduler: The scheduler that times the subscription and sends the failure; not the immediate
  ///     scheduler, which cannot wait without blocking.
  ///   - error: The failure to send when the time is up; evaluated then, at most once per subscription.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal with the same events, or that fails with `error()` when the time is up.
  /// - Note: ReactiveCocoa 2.5 `-timeout:onScheduler:`, which always failed with `RACSignalErrorTimedOut`.
  ///   With typed failures the caller says which `Failure` means "timed out"; signals that cannot fail, or
  ///   that fail with `any Error`, have `timeout(_:on:)`, which fails with ``TimeoutError``.
  @inlinable
  public func timeout(
    _ interval: Duration, on scheduler: any Scheduler, raising error: @autoclosure @escaping @Sendable () -> Failure,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, Failure> {
    timeout(interval, on: scheduler, operator: "timeout(_:on:raising:)", file: file, line: line, error)
  }

  @inlinable
  func timeout(
    _ interval: Duration, on scheduler: any Scheduler, operator name: String, file: StaticString, line: UInt,
    _ makeError: @escaping @Sendable () -> Failure
  ) -> Signal<Value, Failure> {
    precondition(interval >= .zero, "\(name): interval must not be negative", file: file, line: line)
    precondition(
      scheduler !== ImmediateScheduler.shared, "\(name): scheduler must not be the immediate scheduler",
      file: file, line: line)
    return AnonymousSignal { observer in
      TimeoutStorage.attach(self, interval: interval, scheduler: scheduler, makeError: makeError, observer: observer)
    }
  }
}

extension Signal where Failure == Never {
  /// Fails with ``TimeoutError`` unless the signal terminates within `interval` of the subscription.
  ///
  /// Until then every event passes through. The timer starts when the result is subscribed to, before the
  /// source is; if the source completes first, the timer is cancelled. When the time is up, the source is
  /// disposed and the result fails on `scheduler`. Disposing the result disposes the source and cancels the
  /// timer.
  ///
  /// ```swift
  /// let fix = location.take(1).timeout(.seconds(5), on: .main)  // Signal<Position, TimeoutError>
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long the source has to terminate; must not be negative.
  ///   - scheduler: The scheduler that times the subscription and sends the failure; not the immediate
  ///     scheduler.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal with the same events, or that fails with ``TimeoutError`` when the time is up.
  /// - Note: ReactiveCocoa 2.5 `-timeout:onScheduler:` (`RACSignalErrorTimedOut`). A signal that cannot fail
  ///   gains the one failure it can now have.
  @inlinable
  public func timeout(
    _ interval: Duration, on scheduler: any Scheduler, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, TimeoutError> {
    let promoted = AnonymousSignal<Value, TimeoutError> { observer in
      self.attach { event in
        switch event {
        case .next(let value): observer(.next(value))
        case .completed: observer(.completed)
        }
      }
    }
    return promoted.timeout(interval, on: scheduler, operator: "timeout(_:on:)", file: file, line: line) {
      TimeoutError()
    }
  }
}

extension Signal where Failure == any Error {
  /// Fails with ``TimeoutError`` unless the signal terminates within `interval` of the subscription.
  ///
  /// Until then every event passes through. The timer starts when the result is subscribed to, before the
  /// source is; if the source completes or fails first, the timer is cancelled. When the time is up, the
  /// source is disposed and the result fails on `scheduler`. Disposing the result disposes the source and
  /// cancels the timer.
  ///
  /// ```swift
  /// let page: Signal<Data, any Error> = fetch(url).timeout(.seconds(30), on: .main)
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long the source has to terminate; must not be negative.
  ///   - scheduler: The scheduler that times the subscription and sends the failure; not the immediate
  ///     scheduler.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal with the same events, or that fails with ``TimeoutError`` when the time is up.
  /// - Note: ReactiveCocoa 2.5 `-timeout:onScheduler:`, closest to RAC's untyped `NSError` failures.
  @inlinable
  public func timeout(
    _ interval: Duration, on scheduler: any Scheduler, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Value, any Error> {
    timeout(interval, on: scheduler, operator: "timeout(_:on:)", file: file, line: line) { TimeoutError() }
  }
}
