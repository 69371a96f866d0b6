import Foundation

/// A one-shot gate a test awaits: `wait()` suspends until someone calls `open()` (or returns at once if
/// it already has). Continuation-based: no sleeping, no polling.
final class Gate: @unchecked Sendable {
  // guarded by: `lock`
  private let lock = NSLock()
  private var opened = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init() {}

  var isOpen: Bool { lock.withLock { opened } }

  func open() {
    let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      opened = true
      defer { waiters = [] }
      return waiters
    }
    for waiter in waiting { waiter.resume() }
  }

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

/// A gate that opens after `count` arrivals.
final class Countdown: @unchecked Sendable {
  // guarded by: `lock`; `gate` is thread-safe.
  private let lock = NSLock()
  private var remaining: Int
  private let gate = Gate()

  init(_ count: Int) {
    remaining = count
    if count == 0 { gate.open() }
  }

  func arrive() {
    let done = lock.withLock { () -> Bool in
      remaining -= 1
      return remaining == 0
    }
    if done { gate.open() }
  }

  func wait() async { await gate.wait() }
}
