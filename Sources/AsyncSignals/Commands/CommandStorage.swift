// The engine of `Command`.
//
// Every decision (may an execution start? has `executing` or `enabled` changed?) is made under the command's
// state lock, from the immediate state, as RAC's `immediateEnabled` and `immediateExecuting` are. What the
// decision produces — a new `executing` or `enabled` value, an execution signal, an error, the subscription to
// an execution's work — is an effect, queued in order under the same lock. Each queued effect schedules one
// block on the command's scheduler, and each block performs the OLDEST queued effect; so the effects are
// delivered in the order they were decided, even when two threads schedule their blocks in the other order.
// The scheduler (the main one by default) is where RAC's `deliverOn:` put them. Nothing is called while the lock
// is held.

/// What a command's state produces, in order.
enum CommandEffect<Output: Sendable, Failure: Error>: Sendable {
  case executing(Bool)
  case enabled(Bool)
  case execution(Signal<Output, Never>)
  case error(Failure)
  /// Subscribe to an execution's work, once the effects decided before it have been delivered.
  case work(@Sendable () -> Void)
  /// The command went away: complete its signals.
  case finish
}

/// A command's state. Pure: no locks, no callouts. Each mutation returns how many effects it queued.
struct CommandState<Output: Sendable, Failure: Error>: Sendable {
  var activeExecutions = 0
  var allowsConcurrentExecution: Bool
  /// The latest value of the enabled signal (true until it sends).
  var enabledInput = true
  /// While the initialiser samples the enabled signal, values update the state without effects.
  var isInitialising = true
  var publishedExecuting = false
  var publishedEnabled = true
  var effects = Ring<CommandEffect<Output, Failure>>()

  init(allowsConcurrentExecution: Bool) {
    self.allowsConcurrentExecution = allowsConcurrentExecution
  }

  var isEnabled: Bool {
    enabledInput && (allowsConcurrentExecution || activeExecutions == 0)
  }

  /// Ends the initialisation; returns the first `enabled` value, which is published synchronously as in RAC.
  mutating func finishedInitialising() -> Bool {
    isInitialising = false
    publishedEnabled = isEnabled
    return publishedEnabled
  }

  /// Starts an execution if enabled; returns whether it started and the number of effects queued.
  mutating func startExecution(_ execution: Signal<Output, Never>) -> (started: Bool, effects: Int) {
    guard isEnabled else { return (false, 0) }
    activeExecutions += 1
    var count = publishChanges()
    effects.append(.execution(execution))
    count += 1
    return (true, count)
  }

  mutating func finishedExecution(failure: Failure?) -> Int {
    activeExecutions -= 1
    var count = 0
    if let failure {
      effects.append(.error(failure))
      count += 1
    }
    return count + publishChanges()
  }

  mutating func receivedEnabled(_ value: Bool) -> Int {
    enabledInput = value
    return isInitialising ? 0 : publishChanges()
  }

  mutating func setAllowsConcurrentExecution(_ value: Bool) -> Int {
    allowsConcurrentExecution = value
    return publishChanges()
  }

  /// Queues the subscription to an execution's work, behind every effect decided so far.
  mutating func startWork(_ subscribe: @escaping @Sendable () -> Void) -> Int {
    effects.append(.work(subscribe))
    return 1
  }

  mutating func finish() -> Int {
    effects.append(.finish)
    return 1
  }

  /// Queues `executing` and `enabled` if they differ from what was last queued (RAC's `distinctUntilChanged`).
  ///
  /// A change to `false` is queued before a change to `true`, so that an observer of both never sees them true
  /// together when executions may not overlap: `enabled` falls before `executing` rises, and `executing` falls
  /// before `enabled` rises. (RAC 2.5 delivered the two independently, `executing` first, so in between a
  /// starting command looked both running and enabled.)
  private mutating func publishChanges() -> Int {
    let executing = activeExecutions > 0
    let enabled = isEnabled
    var count = 0
    if publishedEnabled && !enabled {
      publishedEnabled = false
      effects.append(.enabled(false))
      count += 1
    }
    if publishedExecuting != executing {
      publishedExecuting = executing
      effects.append(.executing(executing))
      count += 1
    }
    if !publishedEnabled && enabled {
      publishedEnabled = true
      effects.append(.enabled(true))
      count += 1
    }
    return count
  }
}

/// Owns a command's lock and subjects, and delivers its effects on its scheduler.
final class CommandStorage<Output: Sendable, Failure: Error>: Sendable {
  private let state: LockedState<CommandState<Output, Failure>>  // guards every decision of the command
  let scheduler: any Scheduler
  let executing = BehaviorSubject<Bool, Never>(value: false)
  let enabled = BehaviorSubject<Bool, Never>(value: true)
  let executionSignals = Subject<Signal<Output, Never>, Never>()
  let errors = Subject<Failure, Never>()

  init(allowsConcurrentExecution: Bool, scheduler: any Scheduler) {
    state = LockedState(CommandState(allowsConcurrentExecution: allowsConcurrentExecution))
    self.scheduler = scheduler
  }

  var allowsConcurrentExecution: Bool {
    state.withLock { $0.allowsConcurrentExecution }
  }

  var isEnabled: Bool {
    state.withLock { $0.isEnabled }
  }

  var isExecuting: Bool {
    state.withLock { $0.activeExecutions > 0 }
  }

  /// Applies `change` under the lock, then schedules one delivery per effect it queued.
  @discardableResult
  func apply<Result>(_ change: (inout CommandState<Output, Failure>) -> (Result, effects: Int)) -> Result {
    let (result, count) = state.withLock(change)
    for _ in 0..<count { scheduler.schedule { self.performOldestEffect() } }
    return result
  }

  func update(_ change: (inout CommandState<Output, Failure>) -> Int) {
    apply { state in ((), change(&state)) }
  }

  /// Ends the initialisation: publishes the sampled `enabled` value at once.
  func finishInitialising() {
    if !state.withLock({ $0.finishedInitialising() }) { enabled.sendNext(false) }
  }

  private func performOldestEffect() {
    guard let effect = state.withLock({ $0.effects.popFirst() }) else { return }
    switch effect {
    case .executing(let value): executing.sendNext(value)
    case .enabled(let value): enabled.sendNext(value)
    case .execution(let signal): executionSignals.sendNext(signal)
    case .error(let failure): errors.sendNext(failure)
    case .work(let subscribe): subscribe()
    case .finish:
      executing.sendCompleted()
      enabled.sendCompleted()
      executionSignals.sendCompleted()
      errors.sendCompleted()
    }
  }
}
