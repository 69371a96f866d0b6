// Async work in virtual time: `settle()`.
//
// A signal that runs an async function (`Signal.async`, a `Command` whose work is async, in AsyncSignalsInterop)
// runs it in a task, and sends its result from that task, at a moment the test does not control. When the task is
// started from a test scheduler's block (the test scheduler is then `Schedulers.current`), or from work the test
// scheduler already tracks (a task-local says so), the bridge registers it here before the task starts and
// unregisters it when the task ends: "tracked async work". `settle()` waits until every tracked task has ended or
// waits in one of the Interop awaiting calls (`first()`, `last()`, `toArray()`, `waitUntilCompleted()`) — it is
// then idle, and only something else can wake it — then runs the blocks that are due, one at a time, waiting for
// the work each of them starts. Async work thus takes no virtual time: its results are in before the next block
// runs.
//
// Waiting is event-driven: a task that ends, or starts waiting, resumes the settling callers, which look again.
// The only timer is a safety net: a `settle` call whose tracked work makes no progress for `timeout` (wall-clock)
// stops waiting and throws, rather than hang, when the work waits for something `settle` cannot see.

/// Why a settling caller was resumed.
enum SettleWake: Sendable {
  /// Every tracked task has ended or waits in an awaiting call.
  case quiet
  /// A tracked task ended or started waiting: look again.
  case progress
  /// Nothing happened for the whole timeout.
  case noProgress
  /// None of the library's main-actor work that the settle waited for finished for the whole of the main actor's
  /// patience: what was left of it.
  case mainActorNoProgress(MainActorJobs.Counts)
  /// The settling task was cancelled.
  case cancelled
}

/// Resumes settling callers, lock released.
func resumeSettlers(_ settlers: [AsyncWorkState.Settler], with wake: SettleWake) {
  for settler in settlers {
    settler.watchdog?.cancel()
    settler.continuation.resume(returning: wake)
  }
}

extension TestScheduler {
  /// Why ``settle(timeout:isolation:)`` or ``settle(advancingBy:timeout:isolation:)`` stopped before the async work
  /// had settled.
  ///
  /// ```swift
  /// do {
  ///   try await scheduler.settle(timeout: .seconds(5))
  /// } catch {
  ///   print(error)  // what is still running, and why settle could not wait for it
  /// }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 had no async work to wait for; RxTest, ReactiveSwift and Combine's test schedulers
  ///   do not track it either.
  public struct SettleError: Error, CustomStringConvertible, Sendable {
    /// What stopped the wait.
    ///
    /// ```swift
    /// let reason: TestScheduler.SettleError.Reason = .cancelled
    /// ```
    ///
    /// - Note: No RAC counterpart.
    public enum Reason: Sendable, Equatable {
      /// Tracked async work ran, without ending or starting to wait in an awaiting call, for the whole timeout: it
      /// waits for something `settle` cannot see (this test scheduler other than through an awaiting call, a
      /// blocked main actor, a continuation nobody resumes) — or it is slower than the timeout.
      ///
      /// ```swift
      /// let reason: TestScheduler.SettleError.Reason = .noProgress(.seconds(30))
      /// ```
      case noProgress(Duration)
      /// The task calling `settle` was cancelled.
      ///
      /// ```swift
      /// let reason: TestScheduler.SettleError.Reason = .cancelled
      /// ```
      case cancelled
    }

    /// What stopped the wait.
    ///
    /// ```swift
    /// do { try await scheduler.settle() } catch { print(error.reason) }
    /// ```
    public let reason: Reason
    /// How many tracked tasks were running (neither ended nor waiting in an awaiting call) when it stopped.
    ///
    /// ```swift
    /// do { try await scheduler.settle() } catch { print(error.running) }
    /// ```
    public let running: Int
    /// How many tracked tasks were waiting in an awaiting call when it stopped.
    ///
    /// ```swift
    /// do { try await scheduler.settle() } catch { print(error.waiting) }
    /// ```
    public let waiting: Int
    /// How many blocks were scheduled and not yet run when it stopped.
    ///
    /// ```swift
    /// do { try await scheduler.settle() } catch { print(error.scheduledCount) }
    /// ```
    public let scheduledCount: Int
    /// How many of the library's main-actor jobs, in the whole process, had not run yet when it stopped: evaluations
    /// of `Signal.observing`, main-actor deliveries and bindings, and the async work they started (the Testing
    /// article, "Testing a view model"). Not zero after `noProgress`: the main actor was blocked, or kept busy by
    /// other code for the whole timeout.
    ///
    /// ```swift
    /// do { try await scheduler.settle() } catch { print(error.mainActorJobs) }
    /// ```
    public let mainActorJobs: Int
    /// The library's main-actor work that this `settle` waited for and that had not finished when it stopped, by
    /// kind: the work that was due when it last looked, and what that work started. All zero if it stopped before it
    /// waited for main-actor work.
    ///
    /// ```swift
    /// do { try await scheduler.settle() } catch { print(error.mainActorWorkLeft.asyncTasks) }
    /// ```
    public let mainActorWorkLeft: MainActorWork

    /// The library's main-actor work that a `settle` waits for, by kind (see ``mainActorWorkLeft``).
    ///
    /// ```swift
    /// let left = TestScheduler.SettleError.MainActorWork(evaluations: 0, deliveries: 0, asyncTasks: 1)
    /// ```
    ///
    /// - Note: No RAC counterpart.
    public struct MainActorWork: Sendable, Equatable, CustomStringConvertible {
      /// Evaluations of `Signal.observing` that are due (from the `willSet` that made them due) and whose value has
      /// not been sent yet.
      ///
      /// ```swift
      /// do { try await scheduler.settle() } catch { print(error.mainActorWorkLeft.evaluations) }
      /// ```
      public var evaluations: Int
      /// Main-actor jobs the library has enqueued and not yet run: deliveries, bindings, a command's deliveries.
      ///
      /// ```swift
      /// do { try await scheduler.settle() } catch { print(error.mainActorWorkLeft.deliveries) }
      /// ```
      public var deliveries: Int
      /// Tasks of `Signal.async` (or a command's async work) started by that main-actor work that have not sent their
      /// first event yet: a task counts until its first event, not for its whole life.
      ///
      /// ```swift
      /// do { try await scheduler.settle() } catch { print(error.mainActorWorkLeft.asyncTasks) }
      /// ```
      public var asyncTasks: Int

      /// The counts.
      ///
      /// ```swift
      /// let none = TestScheduler.SettleError.MainActorWork(evaluations: 0, deliveries: 0, asyncTasks: 0)
      /// ```
      ///
      /// - Parameters:
      ///   - evaluations: Due evaluations of `Signal.observing`.
      ///   - deliveries: Main-actor jobs not yet run.
      ///   - asyncTasks: Tasks started by main-actor work that have not sent their first event.
      public init(evaluations: Int, deliveries: Int, asyncTasks: Int) {
        self.evaluations = evaluations
        self.deliveries = deliveries
        self.asyncTasks = asyncTasks
      }

      init(_ counts: MainActorJobs.Counts) {
        self.init(evaluations: counts.evaluations, deliveries: counts.deliveries, asyncTasks: counts.asyncWork)
      }

      /// The kinds left, named: "1 Signal.async task that has not sent its first event", or "none".
      ///
      /// ```swift
      /// do { try await scheduler.settle() } catch { print(error.mainActorWorkLeft.description) }
      /// ```
      public var description: String {
        var kinds: [String] = []
        if evaluations > 0 { kinds.append("\(evaluations) Signal.observing evaluation(s) due") }
        if deliveries > 0 { kinds.append("\(deliveries) main-actor delivery job(s) not yet run") }
        if asyncTasks > 0 {
          kinds.append("\(asyncTasks) Signal.async task(s) started by main-actor work that have not sent an event")
        }
        return kinds.isEmpty ? "none" : kinds.joined(separator: ", ")
      }
    }

    /// A sentence for the test's log: the reason, the work still running, and where to look.
    ///
    /// ```swift
    /// do { try await scheduler.settle() } catch { print(error.description) }
    /// ```
    public var description: String {
      let work =
        "\(running) tracked async task(s) still running, \(waiting) waiting in an awaiting call; "
        + "\(scheduledCount) block(s) scheduled; main-actor work it waited for, left: \(mainActorWorkLeft); "
        + "\(mainActorJobs) main-actor job(s) of the library not yet run in the whole process"
      switch reason {
      case .noProgress(let timeout):
        return "TestScheduler.settle: no progress for \(timeout): \(work). The work waits for something settle "
          + "cannot see or run: this test scheduler, other than through first(), last(), toArray() or "
          + "waitUntilCompleted(); a main actor that is blocked or kept busy; a continuation or stream nobody resumes "
          + "(see the Testing article, \"Testing async work\")."
      case .cancelled:
        return "TestScheduler.settle: cancelled: \(work)."
      }
    }
  }

  /// The number of tracked async tasks that have not ended yet: running, or waiting in an awaiting call.
  ///
  /// Async work is tracked when its task is started from one of this scheduler's blocks, or from tracked work; see
  /// ``settle(timeout:isolation:)``.
  ///
  /// ```swift
  /// _ = save.execute(document)  // a command on `scheduler`
  /// try await scheduler.settle()
  /// print(scheduler.pendingAsyncWork)  // 0 once its work has ended, 1 while it waits in an awaiting call
  /// ```
  ///
  /// - Note: No RAC counterpart: RAC had no async functions.
  public var pendingAsyncWork: Int {
    asyncWork.withLock { $0.work.count }
  }

  /// Waits until the async work started from this scheduler's blocks has settled, then runs the blocks due at the
  /// current virtual time, waiting again after each, until nothing is running and nothing is due.
  ///
  /// The way to test async work in virtual time, with no sleeping and no polling. A `Command` whose work is an
  /// `async` function, or a `flattenMap` to `Signal.async` behind a `throttle`, runs that work in a task and
  /// sends its result from the task, later; ``advance()`` right after `execute` would see nothing. `settle()` does
  /// what the test would otherwise poll for:
  ///
  /// 1. It waits until every tracked async task has ended, or is suspended in an awaiting call of its own
  ///    (`first()`, `last()`, `toArray()`, `waitUntilCompleted()`: waiting for an event, not running), and until
  ///    every main-actor job the library has enqueued has run (see "The main actor" below).
  /// 2. Then it runs the next block due at the current virtual time, as ``step()`` would, and goes back to 1; once
  ///    no block is due, it returns. Blocks scheduled by the work's results run too, and the async work they start
  ///    is waited for in turn.
  ///
  /// The main actor: the library's main-actor jobs are work in progress, from the moment they are due until they
  /// have run, been cancelled, or their subscription was disposed — an evaluation of `Signal.observing` (from the
  /// `willSet` that makes it due), a delivery of `bind(onMainActorTo:)`, `subscribeNext(onMainActor:)`,
  /// `subscribeNext(onMainThread:)`, `deliverOnMainThread()` or `deliver(on: QueueScheduler.main)`, a `Command`'s
  /// delivery on the main queue — and so is the async work (`Signal.async`) that such a job starts, until its first
  /// event (a poller it starts is waited for until its first value, not for its whole life; what it sends later is
  /// new work). `settle()` suspends until they have run, so a test on the main actor lets them run while it waits:
  /// an app model's pipeline (observe, throttle on this scheduler, search in a task, bind back on the main actor)
  /// settles with no `Task.yield()`. These jobs are counted for the whole process, since an observation made in a
  /// model's `init` cannot know its test scheduler, so a test also waits for other tests' main-actor jobs that were
  /// due when it looked (never for those made due later), and the work it waits for gets at least 5 minutes without
  /// progress of its own before `settle()` gives up, whatever `timeout` says, and names what is left
  /// (``SettleError/mainActorWorkLeft``). Not counted: main-actor work the library did not enqueue (your own
  /// `Task { @MainActor in … }`, SwiftUI's), work that hops through a queue other than the main queue, a subscription
  /// paused for a bounded consumer's room, and timers.
  ///
  /// Which work is tracked: the task of `Signal.async` (so of a `Command` with async work), in AsyncSignalsInterop,
  /// when it is subscribed from one of this scheduler's blocks — where an operator or a command on this scheduler
  /// subscribes to it — or from tracked work. Async work subscribed directly by the test is not tracked: subscribe
  /// it from a block (`scheduler.schedule { … }`) to have it tracked. The iteration of an async sequence
  /// (`AsyncSequence.signal`) is not tracked: like a subject, it is a source that need not end.
  ///
  /// Work still waiting in an awaiting call when `settle()` returns is counted by ``pendingAsyncWork``: it waits for
  /// an event that has not come, such as a value the test has yet to send, or a block of this scheduler that is not
  /// due yet (``settle(advancingBy:timeout:isolation:)`` moves the clock and runs it).
  ///
  /// Limits, and how they are reported:
  /// - Async work that waits for this scheduler other than through an awaiting call (a continuation resumed from a
  ///   scheduled block, `for await` over a signal's `values`) looks busy to `settle()`, which waits for it and
  ///   never runs the block it needs. After `timeout` without progress — no tracked task ending or starting to wait
  ///   — `settle()` throws ``SettleError`` with ``SettleError/Reason/noProgress(_:)`` instead of hanging. The
  ///   timeout is a safety net, not the mechanism: settling never waits for time to pass otherwise.
  /// - Work that needs a main actor blocked by a synchronous wait is reported as no progress.
  /// - A child task of tracked work (`async let`, a task group) that waits in an awaiting call does not make the
  ///   work idle, since a sibling may still be running: such work settles when it ends, or is reported as no
  ///   progress.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let search = Command<String, [String], Never>(scheduler: scheduler) { query in
  ///   await catalog.search(query)  // async: runs in a task of its own
  /// }
  /// _ = search.execute("swift")
  /// try await scheduler.settle()  // executing became true, the work ran, executing became false
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long tracked work may make no progress before `settle()` gives up; 30 seconds by default,
  ///     far beyond what unit-test work takes. Must be positive.
  ///   - isolation: The caller's actor, where the blocks run; filled in for you.
  /// - Throws: ``SettleError`` if the work made no progress for `timeout`, or if the calling task was cancelled.
  /// - Note: ReactiveCocoa 2.5's `RACTestScheduler` had only synchronous work (`-stepAll` is ``run()``);
  ///   RxTest's and ReactiveSwift's test schedulers leave async work to the test's own polling.
  public func settle(
    timeout: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation
  ) async throws(SettleError) {
    precondition(timeout > .zero, "TestScheduler.settle(timeout:): timeout must be positive")
    try await settle(until: nowNanoseconds, timeout: timeout, method: "TestScheduler.settle", isolation: isolation)
  }

  /// Moves the clock forward by `interval` as ``advance(by:)`` does, but lets tracked async work settle before each
  /// block and at the end: what ``settle(timeout:isolation:)`` does, over a stretch of virtual time.
  ///
  /// The blocks due by the target time run one at a time, in order, each at its own time; after each, the async work
  /// it started is waited for, so its results are in before the next block runs — async work takes no virtual time.
  /// Tracked work that waits in an awaiting call for a block of this scheduler (a `delay` or a `timeout` on it)
  /// gets it when the clock reaches the block's time. The clock reads the target time at the end.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let queries = Subject<String, Never>()
  /// let results = ObservableValue<[[String]]>([])
  /// queries.throttle(.milliseconds(300), on: scheduler)
  ///   .flattenMap { query in Signal.async { await catalog.search(query) } }
  ///   .subscribeNext { results.value.append($0) }
  /// queries.sendNext("swift")
  /// try await scheduler.settle(advancingBy: .milliseconds(300))  // the search ran, and its result arrived
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How far to move the clock; must not be negative.
  ///   - timeout: As in ``settle(timeout:isolation:)``.
  ///   - isolation: The caller's actor, where the blocks run; filled in for you.
  /// - Throws: ``SettleError``, as ``settle(timeout:isolation:)`` does; the clock then stays where the last block
  ///   ran.
  /// - Note: ``advance(by:)`` for async work; ReactiveCocoa 2.5 had none.
  public func settle(
    advancingBy interval: Duration, timeout: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation
  ) async throws(SettleError) {
    precondition(interval >= .zero, "TestScheduler.settle(advancingBy:timeout:): interval must not be negative")
    precondition(timeout > .zero, "TestScheduler.settle(advancingBy:timeout:): timeout must be positive")
    let delta = interval.clampedNanoseconds
    let now = nowNanoseconds
    let limit = now.addingReportingOverflow(delta).overflow ? Int64.max : now + delta
    try await settle(until: limit, timeout: timeout, method: "TestScheduler.settle(advancingBy:)", isolation: isolation)
  }

  private func settle(
    until limit: Int64, timeout: Duration, method: String, isolation: isolated (any Actor)?
  ) async throws(SettleError) {
    while true {
      switch await waitUntilQuiet(timeout: timeout, isolation: isolation) {
      case .quiet, .progress: break
      case .noProgress: throw settleError(.noProgress(timeout))
      case .mainActorNoProgress(let left):
        throw settleError(.noProgress(Swift.max(timeout, Self.mainActorPatience)), mainActorWorkLeft: left)
      case .cancelled: throw settleError(.cancelled)
      }
      if runNextBlock(dueBy: limit, method: method) { continue }
      moveClock(to: limit)
      return
    }
  }

  private func settleError(
    _ reason: SettleError.Reason, mainActorWorkLeft: MainActorJobs.Counts = .init()
  ) -> SettleError {
    let (running, waiting) = asyncWork.withLock { ($0.runningCount, $0.waitingCount) }
    return SettleError(
      reason: reason, running: running, waiting: waiting, scheduledCount: scheduledCount,
      mainActorJobs: MainActorJobs.count, mainActorWorkLeft: SettleError.MainActorWork(mainActorWorkLeft))
  }

  /// How long the library's main-actor work that a `settle` waits for may make no progress before `settle` reports
  /// it, whatever its `timeout`: 5 minutes. The main queue is one thread that every main-actor test shares: pinned to
  /// one CPU beside two busy loops (`taskset -c 0`), the suite's main-actor tests kept it from running any counted job
  /// for over 30 seconds, the patience this had before, and four settles that were only slow reported no progress.
  /// A task-local, so that a test of the report itself can shorten it.
  @TaskLocal static var mainActorPatience: Duration = .seconds(300)

  /// Waits until the library's main-actor jobs (and the work they started) have finished, and every tracked task
  /// has ended or waits in an awaiting call, each progress restarting the timeout. Either kind of work may start the
  /// other, so it looks until it finds both quiet at once.
  private func waitUntilQuiet(timeout: Duration, isolation: isolated (any Actor)?) async -> SettleWake {
    // The main actor is shared by the whole process (other tests, in a parallel suite): its jobs get at least
    // `mainActorPatience` to make progress, however short the timeout given for the tracked work.
    let mainActorTimeout = Swift.max(timeout, Self.mainActorPatience)
    while true {
      let wake = await nextChange(timeout: timeout, isolation: isolation)
      if case .progress = wake { continue }
      guard case .quiet = wake else { return wake }
      // The tracked work is quiet: wait for the main-actor jobs due by now (this test's, and other tests' begun
      // earlier), and what they start, not for those of other tests begun later (MainActorJobs: epochs).
      switch await MainActorJobs.drained(
        through: MainActorJobs.closeEpoch(), timeout: mainActorTimeout, isolation: isolation)
      {
      case .drained: break
      case .timedOut(let left): return .mainActorNoProgress(left)
      case .cancelled: return .cancelled
      }
      // Those jobs may have started tracked work: look again.
      if asyncWork.withLock({ $0.isQuiet }) { return .quiet }
    }
  }

  /// Returns `.quiet` at once if the work is quiet; otherwise suspends until it makes progress, the timeout passes
  /// without any, or the task is cancelled.
  private func nextChange(timeout: Duration, isolation: isolated (any Actor)?) async -> SettleWake {
    let id = asyncWork.withLock { $0.makeID() }
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) { continuation in
          // `Task.isCancelled` is read under the lock: a cancellation handler that runs after this check finds the
          // caller registered, and one that ran before it has set the flag.
          if let wake = asyncWork.withLock({ $0.register(id, continuation, isCancelled: Task.isCancelled) }) {
            continuation.resume(returning: wake)
            return
          }
          let watchdog = Task.detached { [weak self] in
            do { try await Task.sleep(for: timeout) } catch { return }  // cancelled: the caller was resumed
            self?.resumeSettler(id, with: .noProgress)
          }
          if !asyncWork.withLock({ $0.attach(watchdog, to: id) }) { watchdog.cancel() }
        }
      },
      onCancel: { self.resumeSettler(id, with: .cancelled) },
      isolation: isolation)
  }

  private func resumeSettler(_ id: UInt64, with wake: SettleWake) {
    guard let settler = asyncWork.withLock({ $0.takeSettler(id) }) else { return }
    resumeSettlers([settler], with: wake)
  }
}
