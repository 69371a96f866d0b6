import AsyncSignals
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `MulticastConnection` (`--sabotage Connect`): it checks whether it has connected and then
/// records that it has, with two atomic operations instead of one exchange, and hands each caller the disposable
/// of the subscription it made (or a fresh one): two racing callers both subscribe upstream.
final class BrokenConnection: Connectable {
  static let description = "a connection that checks and then sets its connected flag (two steps)"

  let signal: Signal<Int, StressFailure>
  private let source: Signal<Int, StressFailure>
  private let subject = Subject<Int, StressFailure>()
  private let connected = Atomic<Bool>(false)

  init(_ source: Signal<Int, StressFailure>) {
    self.source = source
    signal = subject
  }

  func connect() -> any Disposable {
    guard !connected.load(ordering: .acquiring) else { return ActionDisposable() }  // BUG: not the same disposable
    sched_yield()  // widens the window, as a preemption at this point would
    connected.store(true, ordering: .releasing)  // BUG: not one atomic step with the check
    return source.subscribe(subject)
  }
}
