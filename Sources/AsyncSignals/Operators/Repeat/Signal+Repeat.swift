extension Signal {
  /// Subscribes to this signal again each time it completes, forwarding the values of every subscription.
  ///
  /// The result never completes; it fails with the first failure. Disposing it disposes the live
  /// subscription and stops the resubscriptions. A signal that completes synchronously is resubscribed in a
  /// loop, not recursively: any number of repetitions run in constant stack depth (guarantee 7). Such a
  /// signal repeats on the subscribing thread until something downstream, such as ``take(_:file:line:)``, ends the
  /// result.
  ///
  /// ```swift
  /// let threeHellos = Signal<String, Never>.return("hello").repeat().take(3)  // hello, hello, hello
  /// let polls = fetchStatus.repeat()  // a new fetch each time the previous one completes
  /// ```
  ///
  /// - Returns: The values of each subscription in turn.
  /// - Note: ReactiveCocoa 2.5 `-repeat`. RAC resubscribes through the current scheduler's recursive
  ///   scheduling (asynchronously on a queue scheduler); here the thread that completed the previous
  ///   subscription resubscribes at once, so a synchronous source repeats synchronously.
  @inlinable
  public func `repeat`() -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("repeat()")) { observer in
      ResubscriptionLoop.attach(self, policy: .repeatAfterCompletion, observer)
    }
  }

  /// Subscribes to this signal again each time it fails, at most `count` times in all, then forwards the
  /// failure.
  ///
  /// Values of every subscription are forwarded; the result completes when a subscription completes. The
  /// count is not reset by values: `retry(upTo: 2)` subscribes three times at most. Disposing the result
  /// disposes the live subscription and stops the retries. Retries run in constant stack depth
  /// (guarantee 7).
  ///
  /// ```swift
  /// let page = fetch(page: 1).retry(upTo: 3)  // at most 4 attempts
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many times to resubscribe after a failure; `0` forwards the first failure.
  ///     Must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: The values of each subscription in turn.
  /// - Note: ReactiveCocoa 2.5 `-retry:`, except that `0` means no retries; in RAC `retry:0` retries
  ///   forever, which is ``retry()`` here. Resubscription is synchronous, as for ``repeat()``.
  @inlinable
  public func retry(upTo count: Int, file: StaticString = #fileID, line: UInt = #line) -> Signal<Value, Failure> {
    precondition(count >= 0, "retry(upTo:): count must not be negative", file: file, line: line)
    return AnonymousSignal(nameSource: derivedName("retry(upTo: \(count))")) { observer in
      ResubscriptionLoop.attach(self, policy: .retryAfterFailure(limit: count), observer)
    }
  }

  /// Subscribes to this signal again each time it fails, for as long as it fails.
  ///
  /// Values of every subscription are forwarded; the result completes when a subscription completes and
  /// never fails. Disposing it disposes the live subscription and stops the retries. Retries run in
  /// constant stack depth (guarantee 7).
  ///
  /// ```swift
  /// let status = fetchStatus.retry()  // fetches again after every failure
  /// ```
  ///
  /// - Returns: The values of each subscription in turn.
  /// - Note: ReactiveCocoa 2.5 `-retry` (`retry:0`). Resubscription is synchronous, as for ``repeat()``.
  ///   The failure type is kept, so that the result composes with signals of the same type.
  @inlinable
  public func retry() -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("retry()")) { observer in
      ResubscriptionLoop.attach(self, policy: .retryAfterFailure(limit: nil), observer)
    }
  }
}
