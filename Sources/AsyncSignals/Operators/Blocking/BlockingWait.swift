import Dispatch

/// One blocking wait: the subscription's observer decides the result once, from any thread; the waiting
/// thread takes it, or decides `.timedOut` if it comes too late. Whichever decides first wins, under the lock.
final class BlockingWait<Success: Sendable, Failure: Error>: Sendable {
  private let outcome = LockedState<BlockingResult<Success, Failure>?>(nil)  // decided once
  private let decided = DispatchSemaphore(value: 0)

  /// Records `result` unless a result (or the timeout) came first.
  func decide(_ result: BlockingResult<Success, Failure>) {
    let first = outcome.withLock { outcome -> Bool in
      guard outcome == nil else { return false }
      outcome = result
      return true
    }
    if first { decided.signal() }
  }

  /// Blocks until a result is decided or `timeout` has passed.
  func wait(timeout: Duration) -> BlockingResult<Success, Failure> {
    if decided.wait(timeout: Self.deadline(after: timeout)) == .success, let result = outcome.withLock({ $0 }) {
      return result
    }
    return outcome.withLock { outcome in
      if let result = outcome { return result }
      outcome = .timedOut
      return .timedOut
    }
  }

  private static func deadline(after timeout: Duration) -> DispatchTime {
    let (seconds, attoseconds) = timeout.components
    // Beyond about 290 years a nanosecond count overflows: wait forever instead.
    guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .distantFuture }
    return .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
  }
}
