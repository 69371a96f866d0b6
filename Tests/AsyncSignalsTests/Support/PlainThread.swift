import Dispatch
import Foundation

@testable import AsyncSignals

/// Runs `body` on a new `Thread`, which has no current scheduler (not a scheduler's block, not the main queue,
/// not a task), and waits until it has returned. Guarantee 5's "otherwise" case, tested without a task.
func onPlainThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.start()
  done.wait()
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
