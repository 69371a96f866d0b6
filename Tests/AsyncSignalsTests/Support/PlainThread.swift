import Dispatch
import Foundation

@testable import AsyncSignals

/// Runs `body` on a new `Thread`, which has no current scheduler (not a scheduler's block, not the main queue,
/// not a task), and waits until it has returned. Guarantee 5's "otherwise" case, tested without a task.
func onPlainThread(_ body: @escaping @Sendable () -> Void) {
  startPlainThread(body).wait()
}

/// Starts `body` on a new `Thread` and returns at once; the returned semaphore is signalled when `body` has
/// returned.
func startPlainThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  return done
}

/// Runs `body` on a new `Thread` and returns its result, leaving the calling task's thread free meanwhile. For a
/// test that blocks for long (a many-threaded hammer): on the main actor it would hold every main-actor test's jobs
/// behind it (pinned to one CPU beside busy loops, minutes), and on the cooperative pool every other test's tasks.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Holds a callback where a test wants it: the callback calls `pass()`, which signals that it has arrived and
/// waits; the test calls `waitUntilHeld()`, acts while the callback's thread is held, then `release()`s it.
final class Checkpoint: Sendable {
  private let entered = DispatchSemaphore(value: 0)
  private let resume = DispatchSemaphore(value: 0)

  /// Called from the callback: arrives, and waits until released.
  func pass() {
    entered.signal()
    resume.wait()
  }

  /// Waits until a callback is held in `pass()`.
  func waitUntilHeld() { entered.wait() }

  /// Lets the held callback go on.
  func release() { resume.signal() }
}

/// Keeps the background scheduler (where subscriptions from a plain thread are scheduled) busy until
/// `release()`, so that a test can tell "attached at once" from "attached later" without racing it.
final class BackgroundHold: Sendable {
  private let gate = DispatchSemaphore(value: 0)
  private let released = Locked(false)

  init() {
    let entered = DispatchSemaphore(value: 0)
    let gate = self.gate
    QueueScheduler.background.queue.async {
      entered.signal()
      gate.wait()
    }
    entered.wait()
  }

  /// Lets the background scheduler run again; later calls do nothing.
  func release() {
    guard !released.withLock({ released in
      defer { released = true }
      return released
    }) else { return }
    gate.signal()
  }

  /// Runs `body` with the background scheduler held, then releases it.
  static func during<T>(_ body: () throws -> T) rethrows -> T {
    let hold = BackgroundHold()
    defer { hold.release() }
    return try body()
  }
}
