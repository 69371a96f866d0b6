import AsyncSignals
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `autoconnect()` (`--sabotage Autoconnect`): it reads its count and then increments it, in
/// two atomic steps, connecting a new `publish()` connection whenever it read 0 — two racing first subscribers
/// both connect — and it reconnects after the count has returned to 0.
enum BrokenAutoconnect {
  static let description = "an autoconnect that connects whenever it reads a count of 0 (check, then increment)"

  static func autoconnect(_ upstream: Signal<Int, StressFailure>) -> Signal<Int, StressFailure> {
    let connection = LockedBox<(signal: Signal<Int, StressFailure>, disposable: any Disposable)?>(nil)
    let shared = SharedCount()
    return .create { subscriber in
      if shared.count.load(ordering: .acquiring) == 0 {  // BUG: the check and the increment are two steps
        sched_yield()  // widens the window, as a preemption at this point would
        let published = upstream.publish()
        connection.value = (published.signal, published.connect())  // BUG: reconnects
      }
      shared.count.wrappingAdd(1, ordering: .acquiringAndReleasing)
      let subscription = connection.value?.signal.subscribeNext(
        { subscriber.sendNext($0) }, error: { subscriber.sendError($0) }, completed: { subscriber.sendCompleted() })
      return ActionDisposable {
        subscription?.dispose()
        if shared.count.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
          connection.value?.disposable.dispose()
        }
      }
    }
  }

  /// The count, shared by every subscription's closures.
  private final class SharedCount: Sendable {
    let count = Atomic<Int>(0)
  }
}
