import AsyncSignals
import Glibc
import Synchronization

/// The broken twin of `share()`: its count and its connection are kept apart, and checked then changed without one
/// lock over both. A last subscriber that has counted itself out but not yet disconnected can be overtaken by a new
/// first one, which connects too: two connections live at once (and the old one, overwritten, is never disposed).
enum BrokenShare {
  static let description =
    "a share() whose last subscriber counts itself out, then disconnects, with no lock over both: connections overlap"

  static func share(_ upstream: Signal<Int, StressFailure>) -> Signal<Int, StressFailure> {
    let subject = Subject<Int, StressFailure>()
    let count = Atomic<Int>(0)
    let connection = LockedBox<(any Disposable)?>(nil)
    return Signal.create { subscriber in
      let subscription = subject.subscribe(subscriber)
      if count.add(1, ordering: .acquiringAndReleasing).newValue == 1 {
        let made = upstream.subscribe(subject)
        connection.withLock { $0 = made }
      }
      return ActionDisposable {
        subscription.dispose()
        if count.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
          // BUG: a new first subscriber can connect in between. The yields widen the window, as a preemption at
          // this point would: long enough, on one CPU, for another thread to subscribe.
          for _ in 0..<8 { sched_yield() }
          connection.withLock { made in defer { made = nil }; return made }?.dispose()
        }
      }
    }
  }
}
