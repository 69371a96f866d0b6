// Blocking operators: first, first(default:), waitUntilCompleted and toArray.
//
// For tests and scripts. Each subscribes on the calling thread and blocks it until the signal decides the
// result or the timeout passes, then disposes the subscription. Never call them on the main queue, or from
// a scheduler's block, when the signal's events need that queue or scheduler: the wait would block the
// very thread the events are waiting for, and end in `.timedOut`.

extension Signal {
  /// Blocks until the signal sends its first value, fails or completes, or `timeout` passes.
  ///
  /// The subscription is disposed after the first value, as RAC's `-firstOrDefault:success:error:` does,
  /// and in every other case once the wait ends. Never call it on the main queue when the signal's events
  /// are delivered there (see the top of `Signal+Blocking.swift`).
  ///
  /// ```swift
  /// if case .success(let user?) = users.first(timeout: .seconds(5)) { print(user) }
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: `.success(value)`, `.success(nil)` if the signal completed without a value, `.failure` or
  ///   `.timedOut`.
  /// - Note: ReactiveCocoa 2.5 `-first` and `-firstOrDefault:success:error:`, with a timeout; RAC's `nil`
  ///   stood for both "no value" and "failed", which the result tells apart here.
  public func first(
    timeout: Duration, file: StaticString = #fileID, line: UInt = #line
  ) -> BlockingResult<Value?, Failure> {
    precondition(timeout >= .zero, "first(timeout:): timeout must not be negative", file: file, line: line)
    return block(timeout: timeout) { wait in
      Observer { event in
        switch event {
        case .next(let value): wait.decide(.success(value))
        case .error(let error): wait.decide(.failure(error))
        case .completed: wait.decide(.success(nil))
        }
        return .stop
      }
    }
  }

  /// Blocks until the signal sends its first value, fails or completes, or `timeout` passes; `defaultValue`
  /// stands in when it completes without a value.
  ///
  /// The subscription is disposed after the first value, and in every other case once the wait ends. Never
  /// call it on the main queue when the signal's events are delivered there.
  ///
  /// ```swift
  /// let score = scores.first(default: 0, timeout: .seconds(1)).value  // 0 if it completes without a value
  /// ```
  ///
  /// - Parameters:
  ///   - defaultValue: The result when the signal completes without a value.
  ///   - timeout: How long to wait; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: `.success` with the first value or `defaultValue`, `.failure` or `.timedOut`.
  /// - Note: ReactiveCocoa 2.5 `-firstOrDefault:` and `-firstOrDefault:success:error:`, with a timeout.
  ///   RAC answered the default also on failure; the failure is reported here.
  public func first(
    default defaultValue: Value, timeout: Duration, file: StaticString = #fileID, line: UInt = #line
  ) -> BlockingResult<Value, Failure> {
    precondition(timeout >= .zero, "first(default:timeout:): timeout must not be negative", file: file, line: line)
    return block(timeout: timeout) { wait in
      Observer { event in
        switch event {
        case .next(let value): wait.decide(.success(value))
        case .error(let error): wait.decide(.failure(error))
        case .completed: wait.decide(.success(defaultValue))
        }
        return .stop
      }
    }
  }

  /// Blocks until the signal completes or fails, or `timeout` passes; values are ignored.
  ///
  /// The subscription is disposed once the wait ends. Never call it on the main queue when the signal's
  /// events are delivered there.
  ///
  /// ```swift
  /// if case .failure(let error) = migration.waitUntilCompleted(timeout: .seconds(30)) { print(error) }
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: `.success(())` on completion, `.failure` or `.timedOut`.
  /// - Note: ReactiveCocoa 2.5 `-waitUntilCompleted:`, with a timeout and the typed failure instead of
  ///   `BOOL` and `NSError **`.
  public func waitUntilCompleted(
    timeout: Duration, file: StaticString = #fileID, line: UInt = #line
  ) -> BlockingResult<Void, Failure> {
    precondition(timeout >= .zero, "waitUntilCompleted(timeout:): timeout must not be negative", file: file, line: line)
    return block(timeout: timeout) { wait in
      Observer { event in
        switch event {
        case .next: return .proceed
        case .error(let error): wait.decide(.failure(error))
        case .completed: wait.decide(.success(()))
        }
        return .stop
      }
    }
  }

  /// Blocks until the signal completes, fails, or `timeout` passes, and returns all its values.
  ///
  /// The subscription is disposed once the wait ends. Values gathered before a failure or the timeout are
  /// not returned. Never call it on the main queue when the signal's events are delivered there.
  ///
  /// ```swift
  /// let allLines = logLines.toArray(timeout: .seconds(2)).value ?? []  // [] if the wait timed out
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: `.success` with every value in order, `.failure` or `.timedOut`.
  /// - Note: ReactiveCocoa 2.5 `-toArray`, with a timeout; RAC returned `nil` on failure, which dropped the
  ///   error, and waited forever.
  public func toArray(
    timeout: Duration, file: StaticString = #fileID, line: UInt = #line
  ) -> BlockingResult<[Value], Failure> {
    precondition(timeout >= .zero, "toArray(timeout:): timeout must not be negative", file: file, line: line)
    return block(timeout: timeout) { wait in
      let values = ObserverState<[Value]>([])
      return Observer { event in
        switch event {
        case .next(let value):
          values.value.append(value)
          return .proceed
        case .error(let error): wait.decide(.failure(error))
        case .completed: wait.decide(.success(values.value))
        }
        values.value = []
        return .stop
      }
    }
  }

  /// Subscribes with the observer `makeObserver` makes for a new wait, waits, and disposes.
  private func block<Success: Sendable>(
    timeout: Duration, _ makeObserver: (BlockingWait<Success, Failure>) -> Observer<Value, Failure>
  ) -> BlockingResult<Success, Failure> {
    let wait = BlockingWait<Success, Failure>()
    let subscription = attach(makeObserver(wait))
    let result = wait.wait(timeout: timeout)
    subscription.dispose()
    return result
  }
}
