import AsyncSignals
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of a command without concurrent execution (`--sabotage Command`): a library `Command` that
/// allows concurrent execution, behind a busy flag that `execute` checks and then sets, in two atomic steps — two
/// racing callers both start — and whose `enabled` therefore stays true while it executes.
final class CheckThenStartCommand: CommandUnderTest {
  static let description = "a command that checks it is idle and then marks itself busy (two steps)"

  private let command: Command<Int, Int, StressFailure>
  private let busy = Atomic<Bool>(false)

  init(scheduler: any Scheduler, execute: @escaping @Sendable (Int) -> Signal<Int, StressFailure>) {
    command = Command(allowsConcurrentExecution: true, scheduler: scheduler, execute: execute)
  }

  func execute(_ input: Int) -> Signal<Int, CommandError<StressFailure>> {
    guard !busy.load(ordering: .acquiring) else { return .error(.notEnabled) }
    sched_yield()  // widens the window, as a preemption at this point would
    busy.store(true, ordering: .releasing)  // BUG: not one atomic step with the check
    let execution = command.execute(input)
    _ = execution.subscribeNext(
      { _ in }, error: { [self] _ in busy.store(false, ordering: .releasing) },
      completed: { [self] in busy.store(false, ordering: .releasing) })
    return execution
  }

  var executionSignals: Signal<Signal<Int, Never>, Never> { command.executionSignals }
  var executing: Signal<Bool, Never> { command.executing }
  var enabled: Signal<Bool, Never> { command.enabled }
  var errors: Signal<StressFailure, Never> { command.errors }
}
