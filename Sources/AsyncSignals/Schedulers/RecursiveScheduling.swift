/// The state of one `scheduleRecursive` call: recursion turned into iteration (guarantee 7).
///
/// Each run of the action may ask to be rescheduled. On a scheduler that runs blocks asynchronously the
/// request simply schedules the next run. On one that runs blocks synchronously, the scheduled block finds a
/// run already in progress, records the request and returns; the run in progress performs it after the
/// action returns. Either way the stack does not grow.
final class RecursiveScheduling: Disposable {
  private struct State: Sendable {
    var isRunning = false
    var pendingRuns = 0
    var isDisposed = false
  }

  private let scheduler: any Scheduler
  private let action: @Sendable (@escaping @Sendable () -> Void) -> Void
  private let state = LockedState(State())  // guards the run bookkeeping
  private let scheduled = SerialDisposable()  // the latest scheduled run, cancelled by `dispose()`

  init(scheduler: any Scheduler, action: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
    self.scheduler = scheduler
    self.action = action
  }

  var isDisposed: Bool { scheduled.isDisposed }

  func dispose() {
    state.withLock { $0.isDisposed = true }
    scheduled.dispose()
  }

  func scheduleNext() {
    guard !isDisposed else { return }
    if let disposable = scheduler.schedule({ self.run() }) {
      scheduled.inner = disposable
    }
  }

  private func run() {
    let starts = state.withLock { state -> Bool in
      guard !state.isDisposed else { return false }
      if state.isRunning {
        state.pendingRuns += 1
        return false
      }
      state.isRunning = true
      return true
    }
    guard starts else { return }
    repeat {
      action { self.scheduleNext() }
    } while state.withLock({ state -> Bool in
      guard !state.isDisposed, state.pendingRuns > 0 else {
        state.isRunning = false
        return false
      }
      state.pendingRuns -= 1
      return true
    })
  }
}
