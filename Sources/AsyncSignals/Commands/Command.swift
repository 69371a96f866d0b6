/// An action that runs signal-returning work on request, and reports whether it is running, whether it may
/// run, what each run produced and how runs failed.
///
/// ``execute(_:)`` starts the work for one input, if the command is enabled, and returns the execution's signal.
/// The command is enabled while the latest value of its `enabled` input signal is `true` (it is `true` until
/// that signal sends) and — unless ``allowsConcurrentExecution`` — while no execution is in flight.
///
/// Each execution is hot and runs to its end: the work is subscribed once, on the command's scheduler, after the
/// new ``executing`` and ``enabled`` values have been delivered; its events are replayed to every subscriber of
/// the returned signal; disposing those subscriptions does not stop it. ``executionSignals``, ``executing``,
/// ``enabled`` and ``errors`` deliver on the command's scheduler, in the order the command decided them.
///
/// The scheduler, unless you pass one: the main queue's when the command is made on the main actor (as RAC
/// always used the main thread, for UI), and otherwise a serial ``QueueScheduler`` of the command's own, so that
/// a command made in an actor, a task, an async `main` or a test with no running main queue works there too.
/// A main-actor command needs the main queue to run: in synchronous top-level code that never yields to it (no
/// `await`, no `dispatchMain()`, no run loop), its state signals and executions never start; make such a command
/// with an explicit scheduler, or from an `async` `main`. When the command is deinitialised they complete, and its subscription to
/// the enabled signal is disposed; executions in flight run on.
///
/// ```swift
/// let login = Command<Credentials, Session, LoginError>(enabled: formIsValid) { credentials in
///   api.logIn(credentials)
/// }
/// login.executing.subscribeNext { spinner.isHidden = !$0 }
/// login.errors.subscribeNext { showAlert($0) }
/// login.execute(credentials).subscribeNext({ session in store(session) }, error: { _ in })
/// ```
///
/// To test a command deterministically, pass a ``TestScheduler`` as its scheduler.
///
/// - Note: ReactiveCocoa 2.5 `RACCommand` (`-initWithSignalBlock:`, `-initWithEnabled:signalBlock:`, `-execute:`,
///   `executionSignals`, `executing`, `enabled`, `errors`, `allowsConcurrentExecution`). Deliberate differences:
///   the failure is typed, so `execute(_:)` fails with ``CommandError`` — ``CommandError/notEnabled`` for RAC's
///   `RACCommandErrorNotEnabled`, ``CommandError/failed(_:)`` wrapping the work's failure; `executionSignals`
///   carries signals that cannot fail (RAC caught their errors too, silently; they are on ``errors``); the
///   scheduler is a parameter (RAC always used the main thread); and the enabled signal cannot fail.
///   `canExecute`, `+command`, `+commandWithCanExecuteSignal:`, `-initWithCanExecuteSignal:` and
///   `-addSignalBlock:` were already unavailable in 2.5 and have no counterpart.
public final class Command<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
  private let storage: CommandStorage<Output, Failure>
  private let work: @Sendable (Input) -> Signal<Output, Failure>
  /// The subscription to the enabled signal, disposed when the command goes away (RAC's
  /// `takeUntil:self.rac_willDeallocSignal`).
  private let enabledSubscription: (any Disposable)?

  /// The signal of each execution started from now on, delivered on the command's scheduler.
  ///
  /// Each inner signal replays its execution's values and completes when the execution ends, whether it
  /// succeeded or failed; failures are on ``errors``. Completes when the command is deinitialised.
  ///
  /// ```swift
  /// save.executionSignals.subscribeNext { execution in
  ///   execution.subscribeNext { print("saved", $0) }  // failures are on `errors`
  /// }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `executionSignals`, whose inner signals had their errors caught as well.
  public let executionSignals: Signal<Signal<Output, Never>, Never>

  /// Whether an execution is in flight: the current value on subscription, then each change, delivered on the
  /// command's scheduler.
  ///
  /// ```swift
  /// save.executing.subscribeNext { spinner.isAnimating = $0 }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `executing`.
  public let executing: Signal<Bool, Never>

  /// Whether ``execute(_:)`` would run: the current value on subscription, then each change, delivered on the
  /// command's scheduler.
  ///
  /// It is `false` while the enabled signal's latest value is `false`, and, unless
  /// ``allowsConcurrentExecution``, while an execution is in flight. Its first value is sampled when the
  /// command is created. Unless ``allowsConcurrentExecution``, it is never `true` at the same time as
  /// ``executing``: when an execution starts it turns `false` before `executing` turns `true`, and when the last
  /// one ends it turns `true` after `executing` has turned `false`.
  ///
  /// ```swift
  /// save.enabled.subscribeNext { button.isEnabled = $0 }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `enabled`.
  public let enabled: Signal<Bool, Never>

  /// The failures of executions, as values, delivered on the command's scheduler. Never fails.
  ///
  /// It receives the failure of every execution, including those started before it was subscribed to that
  /// fail afterwards. ``CommandError/notEnabled`` is not sent here: that execution never ran.
  ///
  /// ```swift
  /// login.errors.subscribeNext { showAlert($0) }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `errors`.
  public let errors: Signal<Failure, Never>

  /// Creates a command whose work is `execute`.
  ///
  /// ```swift
  /// let refresh = Command<Void, [Item], APIError>(scheduler: TestScheduler()) { api.items() }
  /// ```
  ///
  /// - Parameters:
  ///   - enabled: Whether the command may execute; `nil` means always (subject to
  ///     `allowsConcurrentExecution`). Subscribed now and sampled synchronously.
  ///   - allowsConcurrentExecution: Whether executions may overlap. Defaults to `false`.
  ///   - scheduler: Where the state signals deliver and where the work is subscribed. `nil`, the default, means
  ///     the main queue's scheduler when `isolation` is the main actor, and a serial scheduler of the command's
  ///     own otherwise.
  ///   - isolation: The caller's isolation, which picks the default scheduler; leave it to its default.
  ///   - execute: Creates the work of one execution from its input.
  /// - Note: ReactiveCocoa 2.5 `-initWithEnabled:signalBlock:` and `-initWithSignalBlock:`.
  public init(
    enabled: Signal<Bool, Never>? = nil,
    allowsConcurrentExecution: Bool = false,
    scheduler: (any Scheduler)? = nil,
    isolation: (any Actor)? = #isolation,
    execute: @escaping @Sendable (Input) -> Signal<Output, Failure>
  ) {
    let storage = CommandStorage<Output, Failure>(
      allowsConcurrentExecution: allowsConcurrentExecution,
      scheduler: scheduler ?? Self.defaultScheduler(isolation: isolation))
    self.storage = storage
    self.work = execute
    self.executionSignals = storage.executionSignals
    self.executing = storage.executing
    self.enabled = storage.enabled
    self.errors = storage.errors
    enabledSubscription = enabled?.attach { event in
      if let value = event.value { storage.update { $0.receivedEnabled(value) } }
      return .proceed
    }
    storage.finishInitialising()
  }

  deinit {
    enabledSubscription?.dispose()
    storage.update { $0.finish() }
  }

  /// The scheduler a command uses when none is given: the main queue's on the main actor, otherwise its own.
  static func defaultScheduler(isolation: (any Actor)?) -> any Scheduler {
    isolation is MainActor ? QueueScheduler.main : QueueScheduler(name: "AsyncSignals.Command")
  }

  /// Whether the command may execute now: its `enabled` input's latest value is `true` and, unless it allows
  /// concurrent execution, no execution is in flight.
  ///
  /// Read synchronously from the command's state, ahead of the ``enabled`` signal, which delivers the same
  /// change later on the command's scheduler. An ``execute(_:)`` right after a `true` may still find the command
  /// disabled if another thread executes it first.
  ///
  /// ```swift
  /// if save.isEnabled { save.execute(document).subscribeNext({ _ in }, error: { _ in }) }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `immediateEnabled` (private in RAC).
  public var isEnabled: Bool {
    storage.isEnabled
  }

  /// Whether an execution is in flight now.
  ///
  /// Read synchronously from the command's state, ahead of the ``executing`` signal, which delivers the same
  /// change later on the command's scheduler.
  ///
  /// ```swift
  /// login.execute(credentials).subscribeNext({ _ in }, error: { _ in })
  /// assert(login.isExecuting)  // true at once; `executing` sends `true` on the scheduler
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `immediateExecuting` (private in RAC).
  public var isExecuting: Bool {
    storage.isExecuting
  }

  /// Whether executions may overlap. While it is `false`, the command is disabled during an execution.
  ///
  /// Setting it updates ``enabled``. Safe to read and write from any thread.
  ///
  /// ```swift
  /// let downloads = Command<URL, Data, Never> { url in download(url) }
  /// downloads.allowsConcurrentExecution = true  // several downloads at once
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `allowsConcurrentExecution` (atomic, default `NO`).
  public var allowsConcurrentExecution: Bool {
    get { storage.allowsConcurrentExecution }
    set { storage.update { $0.setAllowsConcurrentExecution(newValue) } }
  }

  /// Runs the work for `input`, if the command is enabled, and returns the execution's signal.
  ///
  /// If the command is enabled, the work's signal is created now and subscribed once on the command's
  /// scheduler; the returned signal replays its values and ends with it, its failure wrapped in
  /// ``CommandError/failed(_:)``. Disposing subscriptions to it does not stop the execution. If the command is
  /// not enabled — decided now, from its immediate state — nothing runs and the returned signal fails with
  /// ``CommandError/notEnabled``.
  ///
  /// ```swift
  /// save.execute(document).subscribeNext({ print("saved", $0) }, error: { print($0) })
  /// ```
  ///
  /// - Parameter input: The input of this execution.
  /// - Returns: The execution's signal.
  /// - Note: ReactiveCocoa 2.5 `-execute:`.
  public func execute(_ input: Input) -> Signal<Output, CommandError<Failure>> {
    let execution = ReplaySubject<Output, Failure>()
    let started = storage.apply { $0.startExecution(Self.failuresCaught(execution)) }
    guard started else { return .error(.notEnabled) }
    let work = self.work(input)
    let storage = self.storage
    _ = execution.attach { event in
      if event.isTerminating { storage.update { $0.finishedExecution(failure: event.failure) } }
      return .proceed
    }
    // Queued as an effect, not scheduled directly: it must follow the `executing` and `enabled` values decided
    // before it, even those another thread decided first and scheduled later.
    storage.update { $0.startWork { work.subscribe(execution) } }
    return AnonymousSignal { observer in
      execution.attach { event in observer(event.mapError(CommandError.failed)) }
    }
  }

  /// The execution as `executionSignals` carries it: its failure ends it as a completion.
  private static func failuresCaught(_ execution: ReplaySubject<Output, Failure>) -> Signal<Output, Never> {
    AnonymousSignal { observer in
      execution.attach { event in
        switch event {
        case .next(let value): return observer(.next(value))
        case .error, .completed: return observer(.completed)
        }
      }
    }
  }
}

extension Command where Input == Void {
  /// Runs the work, if the command is enabled, and returns the execution's signal: ``execute(_:)`` for a
  /// command without input.
  ///
  /// ```swift
  /// let refresh = Command<Void, [Item], APIError> { api.items() }
  /// refresh.execute().subscribeNext({ show($0) }, error: { print($0) })
  /// ```
  ///
  /// - Returns: The execution's signal.
  /// - Note: ReactiveCocoa 2.5 `-execute:` with a `nil` input.
  public func execute() -> Signal<Output, CommandError<Failure>> {
    execute(())
  }
}
