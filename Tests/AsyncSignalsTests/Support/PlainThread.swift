import Foundation

/// Runs `body` on a new thread that is in no task and on no scheduler's queue, and waits until it returns.
///
/// Guarantee 5's rules differ there: no scheduler is current and no task is running, so subscribe bodies are
/// scheduled on the background scheduler. Tests that pin that rule run their subscriptions through this.
func onPlainThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.start()
  done.wait()
}
