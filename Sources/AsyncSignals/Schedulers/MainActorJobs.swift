import Dispatch
import Synchronization

// The main-actor work the library has set in motion and that has not finished: what `TestScheduler.settle()` waits
// for besides its own tracked async work.
//
// An app model's pipeline hops to the main actor in jobs the library enqueues: `Signal.observing`'s evaluations,
// `bind(onMainActorTo:)`, `subscribeNext(onMainActor:)` and `subscribeNext(onMainThread:)`, `deliverOnMainThread()`,
// `deliver(on: QueueScheduler.main)`, a `Command`'s deliveries on the main queue. None of them is a test scheduler's
// block, so settling used to return before they ran. Each one now counts here from the moment it is due — enqueued,
// or for an observation, from the `willSet` that makes its next evaluation due — until it has run, been cancelled, or
// its subscription was disposed. Async work that such a job starts (`Signal.async`, a command's async work) counts
// too, until its first event (below), so that a chain main → task → main never drops to zero in the middle. Code
// running as counted work sees `countedEpoch`, which is how the work it starts knows to count.
//
// The count is process-wide: an observation made in a model's `init` cannot know the test scheduler that will
// settle it. So that tests running in parallel cannot keep one another's `settle` waiting for ever (there is always
// somebody's job in flight), each unit of work carries an epoch: the epoch current when it became due, or the epoch
// of the counted work that started it. A `settle` opens a new epoch, and waits only for the work of the epochs
// before: what was due when it looked, and everything that work starts. Epochs move only when a `settle` looks: in
// an app, all work is of one epoch.
//
// A task that counted work starts (`Signal.async` from an observation's value or a binding) counts until its first
// event, not for its whole life: a poller, a stream reader or an auto-refresh started by a model keeps running for as
// long as the model lives, and if it kept its epoch, every later `settle` in the process would wait for it. Its first
// event carries the chain on (a binding's job it enqueues inherits the epoch before the task stops counting), so
// main → task → main still settles as one piece; what the task sends later is new work, of the epoch current then.
// So counted work is held in the task-local as a `CountedWork`, which can stop counting while its task runs on, and
// which work started afterwards no longer inherits from.
//
// Each waiter measures progress on its own epochs: only work of those epochs that finishes restarts its patience.
// Other tests that keep the process busy (later epochs) neither hold it nor keep it from reporting `noProgress`.
//
// It costs production one lock round trip when work is enqueued and one when it ends, per job, not per event.
// Neither a timer (`schedule(after:)`) nor a subscription paused for room is work: both wait for something that
// settling must not wait for.

/// The library's main-actor jobs, and the work they start, that have not finished: see the comment above.
@usableFromInline
package enum MainActorJobs {
  /// What a unit of counted work is, for the report of a `settle` that gave up.
  package enum Kind: Sendable {
    /// An evaluation of `Signal.observing`, from the `willSet` that made it due until its value was sent.
    case evaluation
    /// A main-actor job the library enqueued: a delivery, a binding, a command's delivery.
    case delivery
    /// A task that counted work started (`Signal.async`), until its first event.
    case asyncWork
  }

  /// Unfinished work of one epoch, or of several, by kind.
  package struct Counts: Sendable, Equatable {
    package var evaluations = 0
    package var deliveries = 0
    package var asyncWork = 0

    package init() {}

    package var total: Int { evaluations + deliveries + asyncWork }

    mutating func add(_ kind: Kind, _ delta: Int) {
      switch kind {
      case .evaluation: evaluations += delta
      case .delivery: deliveries += delta
      case .asyncWork: asyncWork += delta
      }
    }

    mutating func add(_ other: Counts) {
      evaluations += other.evaluations
      deliveries += other.deliveries
      asyncWork += other.asyncWork
    }
  }

  private struct Waiter: Sendable {
    /// The last epoch it waits for.
    let through: UInt64
    let continuation: CheckedContinuation<Wake, Never>
    /// How much work of its epochs has finished since it began to wait: its watchdog's measure of progress.
    var progress: UInt64 = 0
    var watchdog: Task<Void, Never>?
  }

  private struct Epochs: Sendable {
    /// The epoch of work that becomes due now (unless it inherits an older one).
    var current: UInt64 = 0
    /// Unfinished work, by epoch.
    var pending: [UInt64: Counts] = [:]
    var nextWaiter: UInt64 = 0
    /// The callers of `drained(through:…)`.
    var waiters: [UInt64: Waiter] = [:]

    func isDrained(through epoch: UInt64) -> Bool {
      !pending.keys.contains { $0 <= epoch }
    }

    func left(through epoch: UInt64) -> Counts {
      var left = Counts()
      for (pendingEpoch, counts) in pending where pendingEpoch <= epoch { left.add(counts) }
      return left
    }

    mutating func take(_ id: UInt64) -> Waiter? {
      waiters.removeValue(forKey: id)
    }

    /// Work of `epoch` has finished: progress for the waiters that wait for it; those whose epochs have drained are
    /// taken out.
    mutating func finished(_ epoch: UInt64, drained: Bool) -> [Waiter] {
      guard !waiters.isEmpty else { return [] }
      var woken: [Waiter] = []
      for (id, waiter) in waiters where waiter.through >= epoch {
        if drained && isDrained(through: waiter.through) {
          woken.append(waiters.removeValue(forKey: id)!)
        } else {
          waiters[id]!.progress &+= 1
        }
      }
      return woken
    }
  }

  private static let epochs = LockedState(Epochs())  // guards the epochs, the counts and the waiters

  /// The counted work that is running, if the running code is counted work: a counted main-queue job, an
  /// observation's evaluation, or a task that counted work started, until its first event. Work it sets in motion
  /// inherits its epoch while it counts.
  @TaskLocal package static var running: CountedWork?

  /// The epoch of the counted work that is running and still counts, if any.
  package static var countedEpoch: UInt64? {
    running?.countingEpoch
  }

  /// The number of counted jobs and tasks not yet finished, of every epoch.
  package static var count: Int {
    epochs.withLock { $0.pending.values.reduce(0) { $0 + $1.total } }
  }

  /// The unfinished work of `epoch` and the epochs before it.
  package static func left(through epoch: UInt64) -> Counts {
    epochs.withLock { $0.left(through: epoch) }
  }

  /// A unit of work is due: call before it is enqueued or started, and pair with exactly one `end(_:_:)` of the epoch
  /// returned (the running counted work's, or the current one) and the same kind.
  package static func begin(_ kind: Kind) -> UInt64 {
    let inherited = countedEpoch
    return epochs.withLock { epochs in
      let epoch = inherited ?? epochs.current
      epochs.pending[epoch, default: Counts()].add(kind, 1)
      return epoch
    }
  }

  /// A unit of work of `epoch` has run, been cancelled, or been given up; wakes the waiters it was the last for, and
  /// counts as progress for the others that wait for its epoch.
  package static func end(_ epoch: UInt64, _ kind: Kind) {
    let woken = epochs.withLock { epochs -> [Waiter] in
      var counts = epochs.pending[epoch] ?? Counts()
      counts.add(kind, -1)
      precondition(
        counts.evaluations >= 0 && counts.deliveries >= 0 && counts.asyncWork >= 0,
        "MainActorJobs.end: more ends than begins")
      let drained = counts.total == 0
      epochs.pending[epoch] = drained ? nil : counts
      return epochs.finished(epoch, drained: drained)
    }
    for waiter in woken {
      waiter.watchdog?.cancel()
      waiter.continuation.resume(returning: .drained)
    }
  }

  /// Runs `body` on the main queue as one counted job, as counted work.
  @usableFromInline
  package static func enqueueOnMainQueue(_ body: @escaping @Sendable () -> Void) {
    let work = CountedWork(.delivery)
    DispatchQueue.main.async {
      $running.withValue(work) { body() }
      work.end()
    }
  }

  /// Runs `body` on the main actor in a job of its own, counted: as one main-queue block where the main actor runs
  /// on the main queue (every platform, unless a program replaces the main executor), otherwise in a `Task`.
  ///
  /// Not `Task { @MainActor in … }` from wherever the caller is: such a task starts on the global executor and only
  /// then hops to the main actor, so a cooperative pool that blocking code keeps busy delays it (a second, measured
  /// with both pool threads of a 2-core machine blocked), and the main-queue block is not delayed at all.
  package static func enqueueOnMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    if ActorExecutor.mainActorRunsOnMainQueue {
      enqueueOnMainQueue { MainActor.assumeIsolated(body) }
      return
    }
    let work = CountedWork(.delivery)
    Task { @MainActor in
      $running.withValue(work) { body() }
      work.end()
    }
  }

  /// Runs `body` as counted work of `epoch` (inside a job that counts itself, such as an observation's evaluation),
  /// or as uncounted work for `nil`.
  package static func asCounted<R>(_ epoch: UInt64?, _ body: () throws -> R) rethrows -> R {
    try $running.withValue(epoch.map(CountedWork.init(inheriting:))) { try body() }
  }

  // MARK: Waiting

  /// How a wait ended.
  package enum Wake: Sendable {
    case drained
    /// No work of the waited epochs finished for the whole timeout: what was left of them.
    case timedOut(Counts)
    case cancelled
  }

  /// Opens a new epoch and returns the one it closes: the work a caller that looks now must wait for is that epoch's
  /// and the earlier ones', and what they start.
  package static func closeEpoch() -> UInt64 {
    epochs.withLock { epochs in
      defer { epochs.current += 1 }
      return epochs.current
    }
  }

  /// Suspends the caller until no counted work of `epoch` or earlier is left (at once if none is), the task is
  /// cancelled, or `timeout` of wall-clock time passes in which no counted work of those epochs finishes (work of
  /// later epochs is not progress: other tests' keeps coming).
  package static func drained(
    through epoch: UInt64, timeout: Duration, isolation: isolated (any Actor)? = #isolation
  ) async -> Wake {
    let registration = Atomic<UInt64>(UInt64.max)  // the waiter's id, once registered
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) { continuation in
          let id = epochs.withLock { epochs -> UInt64? in
            if Task.isCancelled || epochs.isDrained(through: epoch) { return nil }
            defer { epochs.nextWaiter += 1 }
            epochs.waiters[epochs.nextWaiter] = Waiter(through: epoch, continuation: continuation)
            return epochs.nextWaiter
          }
          guard let id else {
            continuation.resume(returning: Task.isCancelled ? .cancelled : .drained)
            return
          }
          registration.store(id, ordering: .releasing)
          if Task.isCancelled {
            resume(id, with: .cancelled)
            return
          }
          let watchdog = Task.detached {
            var seen: UInt64 = 0
            while true {
              do { try await Task.sleep(for: timeout) } catch { return }  // cancelled: the caller was resumed
              guard let now = progress(of: id) else { return }  // resumed meanwhile
              if now == seen { break }
              seen = now
            }
            resume(id, with: .timedOut(left(through: epoch)))
          }
          if !epochs.withLock({ epochs -> Bool in
            guard epochs.waiters[id] != nil else { return false }
            epochs.waiters[id]!.watchdog = watchdog
            return true
          }) {
            watchdog.cancel()
          }
        }
      },
      onCancel: {
        let id = registration.load(ordering: .acquiring)
        if id != .max { resume(id, with: .cancelled) }
      },
      isolation: isolation)
  }

  /// How much work of a waiter's epochs has finished since it began to wait; `nil` once it has been resumed.
  private static func progress(of id: UInt64) -> UInt64? {
    epochs.withLock { $0.waiters[id]?.progress }
  }

  private static func resume(_ id: UInt64, with wake: Wake) {
    guard let waiter = epochs.withLock({ $0.take(id) }) else { return }
    waiter.watchdog?.cancel()
    waiter.continuation.resume(returning: wake)
  }
}

/// One unit of counted work, as the task-local `MainActorJobs.running` holds it: its epoch, and whether it still
/// counts. A job counts until it has run; a task that counted work started counts until its first event
/// (`endAtFirstEvent`), and what it starts after that is not of its epoch.
package final class CountedWork: Sendable {
  let epoch: UInt64
  /// The kind it was counted as; `nil` for work that only lends its epoch (`MainActorJobs.asCounted`), counted by
  /// its owner.
  private let kind: MainActorJobs.Kind?
  private let ended = Atomic<Bool>(false)  // guarded by: atomicity (set once, by `end()`)

  /// Counts a new unit of `kind`, of the running counted work's epoch or the current one.
  package init(_ kind: MainActorJobs.Kind) {
    self.kind = kind
    epoch = MainActorJobs.begin(kind)
  }

  /// Lends `epoch` to the work that runs in it, counting nothing itself.
  init(inheriting epoch: UInt64) {
    kind = nil
    self.epoch = epoch
  }

  /// The epoch, while it counts.
  var countingEpoch: UInt64? {
    ended.load(ordering: .acquiring) ? nil : epoch
  }

  /// Stops counting: the first call ends the unit; the later ones do nothing (one load, for a task's every event).
  package func end() {
    guard !ended.load(ordering: .relaxed), !ended.exchange(true, ordering: .acquiringAndReleasing), let kind else {
      return
    }
    MainActorJobs.end(epoch, kind)
  }
}
