import Dispatch
import Synchronization

// The main-actor work the library has set in motion and that has not finished: what `TestScheduler.settle()` waits
// for besides its own tracked async work (issue 27).
//
// An app model's pipeline hops to the main actor in jobs the library enqueues: `Signal.observing`'s evaluations,
// `bind(onMainActorTo:)`, `subscribeNext(onMainActor:)` and `subscribeNext(onMainThread:)`, `deliverOnMainThread()`,
// `deliver(on: QueueScheduler.main)`, a `Command`'s deliveries on the main queue. None of them is a test scheduler's
// block, so settling used to return before they ran. Each one now counts here from the moment it is due — enqueued,
// or for an observation, from the `willSet` that makes its next evaluation due — until it has run, been cancelled, or
// its subscription was disposed. Async work that such a job starts (`Signal.async`, a command's async work) counts
// too, until its task ends, so that a chain main → task → main never drops to zero in the middle. Code running as
// counted work sees `countedEpoch`, which is how the work it starts knows to count.
//
// The count is process-wide: an observation made in a model's `init` cannot know the test scheduler that will
// settle it. So that tests running in parallel cannot keep one another's `settle` waiting for ever (there is always
// somebody's job in flight), each unit of work carries an epoch: the epoch current when it became due, or the epoch
// of the counted work that started it. A `settle` opens a new epoch, and waits only for the work of the epochs
// before: what was due when it looked, and everything that work starts. Epochs move only when a `settle` looks: in
// an app, all work is of one epoch.
//
// It costs production one lock round trip when work is enqueued and one when it ends, per job, not per event.
// Neither a timer (`schedule(after:)`) nor a subscription paused for room is work: both wait for something that
// settling must not wait for.

/// The library's main-actor jobs, and the work they start, that have not finished: see the comment above.
@usableFromInline
package enum MainActorJobs {
  private struct Epochs: Sendable {
    /// The epoch of work that becomes due now (unless it inherits an older one).
    var current: UInt64 = 0
    /// Unfinished work, by epoch.
    var pending: [UInt64: Int] = [:]
    /// How much has finished, to tell progress.
    var finished: UInt64 = 0
    var nextWaiter: UInt64 = 0
    /// The callers of `drained(through:…)`, each with the epoch it waits for.
    var waiters: [UInt64: (through: UInt64, continuation: UnsafeContinuation<Wake, Never>)] = [:]
    var watchdogs: [UInt64: Task<Void, Never>] = [:]

    func isDrained(through epoch: UInt64) -> Bool {
      !pending.keys.contains { $0 <= epoch }
    }

    mutating func take(_ id: UInt64) -> (UnsafeContinuation<Wake, Never>, Task<Void, Never>?)? {
      guard let waiter = waiters.removeValue(forKey: id) else { return nil }
      return (waiter.continuation, watchdogs.removeValue(forKey: id))
    }

    /// The waiters whose epochs have drained, taken out.
    mutating func takeDrained() -> [(UnsafeContinuation<Wake, Never>, Task<Void, Never>?)] {
      guard !waiters.isEmpty else { return [] }
      let drained = waiters.filter { isDrained(through: $0.value.through) }.map(\.key)
      return drained.compactMap { take($0) }
    }
  }

  private static let epochs = LockedState(Epochs())  // guards the epochs, the counts and the waiters

  /// The epoch of the counted work that is running, if the running code is counted work: a counted main-queue job,
  /// an observation's evaluation, or a task that counted work started. Work it sets in motion inherits it.
  @TaskLocal package static var countedEpoch: UInt64?

  /// The number of counted jobs and tasks not yet finished, of every epoch.
  package static var count: Int {
    epochs.withLock { $0.pending.values.reduce(0, +) }
  }

  /// A unit of work is due: call before it is enqueued or started, and pair with exactly one `end(_:)` of the epoch
  /// returned (the running counted work's, or the current one).
  package static func begin() -> UInt64 {
    let inherited = countedEpoch
    return epochs.withLock { epochs in
      let epoch = inherited ?? epochs.current
      epochs.pending[epoch, default: 0] += 1
      return epoch
    }
  }

  /// A unit of work of `epoch` has run, been cancelled, or been given up; wakes the waiters it was the last for.
  package static func end(_ epoch: UInt64) {
    let woken = epochs.withLock { epochs -> [(UnsafeContinuation<Wake, Never>, Task<Void, Never>?)] in
      let left = (epochs.pending[epoch] ?? 0) - 1
      precondition(left >= 0, "MainActorJobs.end: more ends than begins")
      epochs.pending[epoch] = left == 0 ? nil : left
      epochs.finished &+= 1
      return left == 0 ? epochs.takeDrained() : []
    }
    for (continuation, watchdog) in woken {
      watchdog?.cancel()
      continuation.resume(returning: .drained)
    }
  }

  /// Runs `body` on the main queue as one counted job, as counted work.
  @usableFromInline
  package static func enqueueOnMainQueue(_ body: @escaping @Sendable () -> Void) {
    let epoch = begin()
    DispatchQueue.main.async {
      $countedEpoch.withValue(epoch) { body() }
      end(epoch)
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
    let epoch = begin()
    Task { @MainActor in
      $countedEpoch.withValue(epoch) { body() }
      end(epoch)
    }
  }

  /// Runs `body` as counted work of `epoch` (inside a job that counts itself, such as an observation's evaluation),
  /// or as uncounted work for `nil`.
  package static func asCounted<R>(_ epoch: UInt64?, _ body: () throws -> R) rethrows -> R {
    try $countedEpoch.withValue(epoch) { try body() }
  }

  // MARK: Waiting

  /// How a wait ended.
  package enum Wake: Sendable {
    case drained
    case timedOut
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
  /// cancelled, or `timeout` of wall-clock time passes in which no counted work at all finishes.
  package static func drained(
    through epoch: UInt64, timeout: Duration, isolation: isolated (any Actor)? = #isolation
  ) async -> Wake {
    let registration = Atomic<UInt64>(UInt64.max)  // the waiter's id, once registered
    return await withTaskCancellationHandler(
      operation: {
        await withUnsafeContinuation(isolation: isolation) { continuation in
          let id = epochs.withLock { epochs -> UInt64? in
            if Task.isCancelled || epochs.isDrained(through: epoch) { return nil }
            defer { epochs.nextWaiter += 1 }
            epochs.waiters[epochs.nextWaiter] = (epoch, continuation)
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
            var seen = finished
            while true {
              do { try await Task.sleep(for: timeout) } catch { return }  // cancelled: the caller was resumed
              let now = finished
              if now == seen { break }
              seen = now
            }
            resume(id, with: .timedOut)
          }
          if !epochs.withLock({ epochs -> Bool in
            guard epochs.waiters[id] != nil else { return false }
            epochs.watchdogs[id] = watchdog
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

  /// How much counted work has finished: a waiter that sees it move knows that work is progressing.
  private static var finished: UInt64 { epochs.withLock { $0.finished } }

  private static func resume(_ id: UInt64, with wake: Wake) {
    guard let (continuation, watchdog) = epochs.withLock({ $0.take(id) }) else { return }
    watchdog?.cancel()
    continuation.resume(returning: wake)
  }
}
