import AsyncSignals
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `ActionDisposable` (`--sabotage ActionDisposable`): it reads its flag, then sets it,
/// with two atomic operations instead of one `exchange`. No data race for ThreadSanitizer to see, but two
/// threads can both read `false` and both run the action.
final class CheckThenSetDisposable: Disposable {
  private let disposed = Atomic<Bool>(false)
  private let action: @Sendable () -> Void

  init(_ action: @escaping @Sendable () -> Void) { self.action = action }

  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  func dispose() {
    guard !disposed.load(ordering: .acquiring) else { return }
    sched_yield()  // widens the window, as a preemption at this point would
    disposed.store(true, ordering: .releasing)  // BUG: not one atomic step with the check
    action()
  }
}
