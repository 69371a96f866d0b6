import Dispatch

/// What the library can know, with public API only, about where an actor's jobs run.
///
/// An actor's code may be entered synchronously, with no hop, only when the caller already runs on the actor's
/// executor. The runtime's own "is this the current executor?" query is underscored, so the library recognises
/// the two executors it can identify itself: the main actor's, which is the main queue, and a
/// ``QueueScheduler`` serving as an actor's custom executor (found through `asSerialExecutor()`; on Apple
/// platforms older than the 26.4 releases that call is missing, and such an actor is treated as any other).
/// Dispatch then says whether the calling code runs on that queue. For every other actor the answer is "no",
/// which is always safe: the work is queued and a job runs it.
///
/// The main actor runs on the main queue in every Swift 6.3 program, unless the program replaces the main
/// executor through the concurrency runtime's experimental custom-executor SPI
/// (`@_spi(ExperimentalCustomExecutors)`, `_createExecutors(factory:)`): checked once, the main actor is then
/// treated as any other actor (never at once; its jobs hop onto it as `Task`s), which is correct on any executor.
@usableFromInline
package enum ActorExecutor: Sendable {
  /// The main actor: the main queue.
  case mainQueue
  /// An actor whose custom executor is this scheduler.
  case queue(QueueScheduler)
  /// An actor whose executor the library cannot identify: a default actor, or another custom executor.
  case unknown

  @usableFromInline
  package init<A: Actor>(of actor: A) {
    if actor is MainActor {
      self = Self.mainActorRunsOnMainQueue ? .mainQueue : .unknown
      return
    }
    if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *),
      let scheduler = actor.unownedExecutor.asSerialExecutor() as? QueueScheduler
    {
      self = .queue(scheduler)
      return
    }
    self = .unknown
  }

  /// Whether the main actor's executor is the main queue (see the type's comment), asked once.
  @usableFromInline
  static let mainActorRunsOnMainQueue = isMainQueue(MainActor.sharedUnownedExecutor)

  /// Whether `executor` is Dispatch's main queue: the runtime's own main executor, whose type the concurrency
  /// library does not make public, so it is told by its fully qualified name, `Swift.DispatchMainExecutor` (the
  /// concurrency library's types live in the module `Swift`; a type of that name in any other module, a user's
  /// own `DispatchMainExecutor` among them, qualifies differently). An executor the runtime cannot show as a
  /// `SerialExecutor` is the built-in main queue (older runtimes, which cannot replace it). Any other answer only
  /// costs the at-once path, never correctness.
  static func isMainQueue(_ executor: UnownedSerialExecutor) -> Bool {
    if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
      guard let serial = executor.asSerialExecutor() else { return true }
      return String(reflecting: type(of: serial)) == "Swift.DispatchMainExecutor"
    }
    return true
  }

  /// Whether the calling code runs on the actor's executor, so that `assumeIsolated` holds.
  @inlinable
  package var isCurrent: Bool {
    switch self {
    case .mainQueue: return CurrentScheduler.isOnMainQueue
    case .queue(let scheduler): return scheduler.isRunningOnQueue
    case .unknown: return false
    }
  }

  /// Runs `job` later on the actor's executor, in its isolation, as one Dispatch block, when that executor is a
  /// queue the library knows; returns `false` without running it for an actor whose executor it cannot identify
  /// (the caller then makes a `Task` that hops onto the actor).
  @inlinable
  func enqueueOnKnownQueue<A: Actor>(on actor: A, _ job: @escaping @Sendable (isolated A) -> Void) -> Bool {
    switch self {
    case .mainQueue:
      // Counted until it has run, so that `TestScheduler.settle()` waits for it (MainActorJobs).
      MainActorJobs.enqueueOnMainQueue { actor.assumeIsolated { job($0) } }
    case .queue(let scheduler):
      scheduler.queue.async { scheduler.performAsCurrent { actor.assumeIsolated { job($0) } } }
    case .unknown:
      return false
    }
    return true
  }
}
