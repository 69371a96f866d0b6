import Dispatch
import Foundation

/// Runs `body` in a task and waits for it, but no longer than `seconds`: `true` if it finished, `false` if it
/// hung. A safety net, so that a hang fails the test instead of the whole run; a passing test never waits for it.
/// Generous (5 minutes): on a loaded 2-core machine, a test's task can wait tens of seconds for a thread of the
/// cooperative pool while hundreds of parallel tests queue there, and 20 s failed tests that were only slow.
/// A hung task is left behind (it holds whatever it was waiting for; nothing else in the test touches it).
func finishes(within seconds: Double = 300, _ body: @escaping @Sendable () async -> Void) async -> Bool {
  let outcome = Locked<CheckedContinuation<Bool, Never>?>(nil)
  @Sendable func settle(_ finished: Bool) {
    outcome.withLock { continuation in
      continuation?.resume(returning: finished)
      continuation = nil
    }
  }
  return await withCheckedContinuation { continuation in
    outcome.value = continuation
    Task {
      await body()
      settle(true)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { settle(false) }
  }
}

/// Starts a plain thread (no task, no scheduler) that runs `body`; the returned gate opens when it is done.
func plainThread(_ body: @escaping @Sendable () -> Void) -> Gate {
  let done = Gate()
  Thread {
    body()
    done.open()
  }.start()
  return done
}
