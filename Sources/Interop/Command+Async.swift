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
  /// - Where the work runs: in a new detached task (`Task.detached`) per execution, on the global concurrent
  ///   executor — never on the caller's actor (executing from a button handler does not run the work on the
  ///   main actor) nor on the command's scheduler — without the caller's priority or task-local values. A
  ///   closure literal is nonisolated; a `@MainActor` function passed as the work runs on the main actor, as
  ///   its own isolation says.
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
  ///   try await api.logIn(credentials)  // runs in a task of its own, off the main actor
  /// }
  /// login.executing.subscribeNext(onMainActor: { spinner.isAnimating = $0 })
  /// login.errors.subscribeNext(onMainActor: { alert.show($0) })
  ///
  /// // In a task on the main actor:
  /// do {
  ///   let session = try await login.execute(credentials).first()  // typed: CommandError<LoginError>
  /// } catch .notEnabled {
  ///   // already logging in, or the form is invalid
  /// } catch {
  ///   print(error.failure)  // `.failed(let failure)`: also sent on `login.errors`
  /// }
  /// ```
  ///
  /// Swift 6 infers `throws(any Error)` for a closure containing `try` unless told otherwise: for a typed
  /// `Failure`, write the closure's type (`{ credentials async throws(LoginError) -> Session in … }`) or pass a
  /// function reference, whose type is already known.
  ///
  /// - Parameters:
  ///   - enabled: Whether the command may execute; `nil` means always (subject to
  ///     `allowsConcurrentExecution`). Subscribed now and sampled synchronously.
  ///   - allowsConcurrentExecution: Whether executions may overlap. Defaults to `false`.
  ///   - scheduler: Where the state signals deliver and where each execution starts its task. Defaults to the
  ///     main queue's scheduler.
  ///   - execute: The work of one execution, called once with its input.
  /// - Note: ReactiveCocoa 2.5 `-initWithEnabled:signalBlock:` with a signal block that wraps asynchronous work
  ///   (`+startLazilyWithScheduler:block:`, or `+createSignal:` around a callback API). RAC, like its peers,
  ///   had no async functions; its executions also ran to their end whoever unsubscribed.
  public convenience init(
    enabled: Signal<Bool, Never>? = nil,
    allowsConcurrentExecution: Bool = false,
    scheduler: any Scheduler = QueueScheduler.main,
    execute: @escaping @Sendable (Input) async throws(Failure) -> Output
  ) {
    self.init(enabled: enabled, allowsConcurrentExecution: allowsConcurrentExecution, scheduler: scheduler) {
      input in
      Signal.async { () async throws(Failure) -> Output in try await execute(input) }
    }
  }
}
