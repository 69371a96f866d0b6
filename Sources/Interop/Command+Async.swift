import AsyncSignals

extension Command {
  /// Creates a command whose work is an async function: each execution calls `execute` once, in a task of its
  /// own, and sends what it returns.
  ///
  /// The command behaves as one made with the signal-returning initialiser and the work
  /// `Signal.async { try await execute(input) }`: `execute(_:)` decides at once whether the command is
  /// enabled; `executing` and `enabled` change on the command's scheduler; then, on that scheduler, the
  /// execution starts its task.
  ///
  /// - Where the work runs: in a new detached task (`Task.detached`) per execution, without the caller's
  ///   priority or task-local values, in the work's own isolation, as with `Task`. A closure literal is
  ///   nonisolated, the default: it runs on the global concurrent executor — never on the caller's actor
  ///   (executing from a button handler does not run the work on the main actor) nor on the command's
  ///   scheduler — so executions never queue behind unrelated work of the actor that made the command. A
  ///   `@MainActor` closure (`{ @MainActor input in … }`) or function runs on the main actor; for an actor
  ///   instance, use ``init(isolatedTo:enabled:allowsConcurrentExecution:scheduler:isolation:execute:)``.
  /// - Termination: the returned value is the execution's one value, sent from the task's thread (use
  ///   `deliver(on:)`, `subscribeNext(onMainActor:)` or `await` to move it), then the execution completes. A
  ///   thrown error ends the execution: the signal of `execute(_:)` fails with `CommandError.failed(_:)`
  ///   carrying it, typed, and `errors` sends it. Either way `executing` and `enabled` then change back on the
  ///   scheduler, once no other execution is in flight.
  /// - Cancellation: the work's task would be cancelled if the execution's subscription to it were disposed,
  ///   but a command never disposes that subscription before the work ends — each execution runs to its end,
  ///   as in RAC. Disposing a subscription to `execute(_:)`'s signal, or cancelling a task awaiting it, stops
  ///   only that subscriber or that wait; the work runs on, uncancelled, and `executing` stays `true` until it
  ///   returns. For a cancellable execution, use the signal-returning initialiser with `take(until:)`, which
  ///   disposes the work's subscription and so cancels its task:
  ///   `Command(…) { input in Signal.async { await download(input) }.take(until: cancelTaps) }`; the
  ///   execution then completes without a value.
  ///
  /// ```swift
  /// let login = Command<Credentials, Session, LoginError>(enabled: formIsValid) {
  ///   credentials async throws(LoginError) -> Session in
  ///   try await api.session(for: credentials)  // runs in a task of its own, off the main actor
  /// }
  /// login.executing.subscribeNext(onMainActor: { spinner.isAnimating = $0 })
  /// do throws(CommandError<LoginError>) {  // in a task on the main actor
  ///   if let session = try await login.execute(credentials).first() { store(session) }
  /// } catch .notEnabled {
  ///   print("already logging in, or the form is invalid")
  /// } catch .failed(let failure) {
  ///   showAlert(failure)  // also sent on `login.errors`
  /// }
  /// ```
  ///
  /// Swift 6 infers `throws(any Error)` for a closure containing `try` unless told otherwise: for a typed
  /// `Failure`, write the closure's type (`{ credentials async throws(LoginError) -> Session in … }`) or pass a
  /// function reference, whose type is already known.
  ///
  /// In a test, give the command a `TestScheduler`: each execution's task then starts from one of its blocks, so
  /// `try await scheduler.settle()` waits for the work and runs the end it schedules (`TestScheduler.settle`).
  ///
  /// - Parameters:
  ///   - enabled: Whether the command may execute; `nil` means always (subject to
  ///     `allowsConcurrentExecution`). Subscribed now and sampled synchronously.
  ///   - allowsConcurrentExecution: Whether executions may overlap. Defaults to `false`.
  ///   - scheduler: Where the state signals deliver and where each execution starts its task. `nil`, the
  ///     default, means the main queue's scheduler when `isolation` is the main actor, and a serial scheduler
  ///     of the command's own otherwise (see ``Command``).
  ///   - isolation: The caller's isolation, which picks the default scheduler; leave it to its default.
  ///   - execute: The work of one execution, called once with its input.
  /// - Note: ReactiveCocoa 2.5 `-initWithEnabled:signalBlock:` with a signal block that wraps asynchronous work
  ///   (`+startLazilyWithScheduler:block:`, or `+createSignal:` around a callback API). RAC, like its peers,
  ///   had no async functions; its executions also ran to their end whoever unsubscribed.
  public convenience init(
    enabled: Signal<Bool, Never>? = nil,
    allowsConcurrentExecution: Bool = false,
    scheduler: (any Scheduler)? = nil,
    isolation: (any Actor)? = #isolation,
    execute: @escaping @Sendable @isolated(any) (Input) async throws(Failure) -> Output
  ) {
    self.init(
      enabled: enabled, allowsConcurrentExecution: allowsConcurrentExecution, scheduler: scheduler,
      isolation: isolation
    ) { input in
      Signal.async { () async throws(Failure) -> Output in try await execute(input) }
    }
  }

  /// Creates a command whose work is an async function isolated to `actor`: each execution calls `execute`
  /// once, in `actor`'s isolation, and sends what it returns.
  ///
  /// As ``init(enabled:allowsConcurrentExecution:scheduler:isolation:execute:)``, but the work receives `actor`
  /// `isolated`, so it reads and writes the actor's state with no `await`. Each execution's task starts detached
  /// and hops onto the actor; each `await` inside the work lets other work of the actor run. The command holds
  /// `actor` strongly: an actor that stores its own command makes a cycle, so such a command is made with a
  /// weakly captured actor and the signal-returning initialiser, or released by the actor's owner.
  ///
  /// ```swift
  /// actor Drafts {
  ///   var saved: [Draft] = []
  ///   func makeSaveCommand() -> Command<Draft, Void, APIError> {
  ///     Command(isolatedTo: self) { drafts, draft throws(APIError) in
  ///       try await api.save(draft)
  ///       drafts.saved.append(draft)
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the work runs in.
  ///   - enabled: Whether the command may execute; `nil` means always.
  ///   - allowsConcurrentExecution: Whether executions may overlap. Defaults to `false`.
  ///   - scheduler: Where the state signals deliver and where each execution starts its task; `nil` as in
  ///     ``init(enabled:allowsConcurrentExecution:scheduler:isolation:execute:)``.
  ///   - isolation: The caller's isolation, which picks the default scheduler; leave it to its default.
  ///   - execute: The work of one execution, called once with the actor and the input.
  /// - Note: ReactiveCocoa 2.5 `-initWithEnabled:signalBlock:` with work that runs on an actor.
  public convenience init<A: Actor>(
    isolatedTo actor: A,
    enabled: Signal<Bool, Never>? = nil,
    allowsConcurrentExecution: Bool = false,
    scheduler: (any Scheduler)? = nil,
    isolation: (any Actor)? = #isolation,
    execute: @escaping @Sendable (isolated A, Input) async throws(Failure) -> Output
  ) {
    self.init(
      enabled: enabled, allowsConcurrentExecution: allowsConcurrentExecution, scheduler: scheduler,
      isolation: isolation
    ) { input in
      Signal.async { () async throws(Failure) -> Output in try await execute(actor, input) }
    }
  }
}
