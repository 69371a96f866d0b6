import Foundation

/// A one-shot gate a test awaits to learn that an object has been deinitialised: give it to the object, call
/// `open()` from the object's `deinit`, and `await wait()`, which suspends until `open()` has been called (or
/// returns at once if it has). Once `wait()` has returned the object is being or has been deinitialised, so a weak
/// reference to it reads `nil`. Continuation-based: no sleeping, no polling.
final class ReleaseGate: @unchecked Sendable {
  // guarded by: `lock`
  private let lock = NSLock()
  private var opened = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init() {}

  /// Opens the gate: resumes every waiter, and lets later calls of `wait()` return at once.
  func open() {
    let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      opened = true
      defer { waiters = [] }
      return waiters
    }
    for waiter in waiting { waiter.resume() }
  }

  /// Suspends until `open()` has been called: until the object that opens it in its `deinit` has gone away.
  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = lock.withLock { () -> Bool in
        if opened { return true }
        waiters.append(continuation)
        return false
      }
      if isOpen { continuation.resume() }
    }
  }
}
