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
// counted work sees `isCounted`, which is how the work it starts knows to count.
//
// The count is process-wide: an observation made in a model's `init` cannot know the test scheduler that will
// settle it. It costs production one atomic add when work is enqueued and one subtract when it ends, per job, not
// per event. Neither a timer (`schedule(after:)`) nor a subscription paused for room is work: both wait for something
// that settling must not wait for.

/// The library's main-actor jobs, and the work they start, that have not finished: see the comment above.
@usableFromInline
package enum MainActorJobs {
  /// Two counts in one word, so that finishing costs one atomic operation: counted work not yet finished, in the
  /// low 32 bits, and how much has finished (modulo 2^32, to tell progress), in the high 32 bits. guarded by:
  /// atomicity.
  @usableFromInline static let counts = Atomic<UInt64>(0)
  /// What `end()` adds to `counts`: one more finished, one fewer pending.
  @usableFromInline static let finishedOne: UInt64 = (1 << 32) &- 1
  /// Whether a caller of `drained(timeout:isolation:)` may be waiting: raised under `waiters`' lock, read by the
  /// work that brings the count to zero, which then takes the lock and resumes them.
  private static let hasWaiters = Atomic<Bool>(false)
  private static let waiters = LockedState(Waiters())  // guards the waiting callers and their watchdogs

  /// Whether the running code is counted work: a counted main-queue job, an observation's evaluation, or a task
  /// that counted work started. Work it sets in motion counts as well.
  @TaskLocal package static var isCounted = false

  /// The number of counted jobs and tasks not yet finished.
  package static var count: Int { Int(counts.load(ordering: .sequentiallyConsistent) & 0xFFFF_FFFF) }

  /// How many have finished, modulo 2^32: a waiter that sees it move knows that work is progressing.
  static var finished: UInt64 { counts.load(ordering: .relaxed) >> 32 }

  /// A unit of work is due: call before it is enqueued or started, and pair with exactly one `end()`.
  @inlinable
  package static func begin() {
    counts.wrappingAdd(1, ordering: .relaxed)
  }

  /// A unit of work has run, been cancelled, or been given up; wakes the waiting callers when none is left.
  @inlinable
  package static func end() {
    let new = counts.wrappingAdd(finishedOne, ordering: .sequentiallyConsistent).newValue
    if new & 0xFFFF_FFFF == 0 { wakeWaiters() }
  }

  /// Runs `body` on the main queue as one counted job, as counted work.
  @usableFromInline
  package static func enqueueOnMainQueue(_ body: @escaping @Sendable () -> Void) {
    begin()
    DispatchQueue.main.async {
      $isCounted.withValue(true) { body() }
      end()
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
    begin()
    Task { @MainActor in
      $isCounted.withValue(true) { body() }
      end()
    }
  }

  /// Runs `body` as counted work (inside a job that counts itself, such as an observation's evaluation).
  package static func asCounted<R>(_ body: () throws -> R) rethrows -> R {
    try $isCounted.withValue(true) { try body() }
  }

  // MARK: Waiting until none is left

  /// How a wait for zero ended.
  package enum Wake: Sendable {
    case drained
    case timedOut
    case cancelled
  }

  private struct Waiters: Sendable {
    var nextID: UInt64 = 0
    var continuations: [UInt64: UnsafeContinuation<Wake, Never>] = [:]
    var watchdogs: [UInt64: Task<Void, Never>] = [:]

    mutating func take(_ id: UInt64) -> (UnsafeContinuation<Wake, Never>, Task<Void, Never>?)? {
      guard let continuation = continuations.removeValue(forKey: id) else { return nil }
      return (continuation, watchdogs.removeValue(forKey: id))
    }
  }

  /// Suspends the caller until no counted work is left (at once if none is), the task is cancelled, or `timeout`
  /// of wall-clock time passes in which none of it finishes (the count is process-wide: work that keeps finishing,
  /// however much of it other tests enqueue, is progress).
  package static func drained(timeout: Duration, isolation: isolated (any Actor)? = #isolation) async -> Wake {
    if count == 0 { return .drained }
    let id = waiters.withLock { waiters -> UInt64 in
      defer { waiters.nextID &+= 1 }
      return waiters.nextID
    }
    return await withTaskCancellationHandler(
      operation: {
        await withUnsafeContinuation(isolation: isolation) { continuation in
          let registered = waiters.withLock { waiters -> Bool in
            if Task.isCancelled { return false }
            waiters.continuations[id] = continuation
            hasWaiters.store(true, ordering: .sequentiallyConsistent)
            return true
          }
          guard registered else {
            continuation.resume(returning: .cancelled)
            return
          }
          // Registered, then checked: work that reached zero before the flag was raised has not seen it.
          if count == 0 {
            resume(id, with: .drained)
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
          if !waiters.withLock({ waiters -> Bool in
            guard waiters.continuations[id] != nil else { return false }
            waiters.watchdogs[id] = watchdog
            return true
          }) {
            watchdog.cancel()
          }
        }
      },
      onCancel: { resume(id, with: .cancelled) },
      isolation: isolation)
  }

  private static func resume(_ id: UInt64, with wake: Wake) {
    guard let (continuation, watchdog) = waiters.withLock({ $0.take(id) }) else { return }
    watchdog?.cancel()
    continuation.resume(returning: wake)
  }

  @usableFromInline
  static func wakeWaiters() {
    guard hasWaiters.load(ordering: .sequentiallyConsistent) else { return }
    let taken = waiters.withLock { waiters -> [(UnsafeContinuation<Wake, Never>, Task<Void, Never>?)] in
      // Still zero under the lock: a caller that registers after this sees the count itself.
      guard count == 0 else { return [] }
      hasWaiters.store(false, ordering: .sequentiallyConsistent)
      defer {
        waiters.continuations = [:]
        waiters.watchdogs = [:]
      }
      return waiters.continuations.map { id, continuation in (continuation, waiters.watchdogs[id]) }
    }
    for (continuation, watchdog) in taken {
      watchdog?.cancel()
      continuation.resume(returning: .drained)
    }
  }
}
