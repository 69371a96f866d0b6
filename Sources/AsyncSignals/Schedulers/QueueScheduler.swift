import Dispatch
import Foundation
import Synchronization

/// A serial scheduler backed by a Dispatch queue; also a `SerialExecutor`, so that an actor can run on the
/// very queue its signals are delivered on.
///
/// Blocks run first in, first out on the scheduler's private serial queue — even when that queue targets a
/// concurrent one — each with the scheduler as ``Schedulers/current``. Dates are wall-clock times; delays are
/// measured on the monotonic clock.
///
/// ```swift
/// let worker = QueueScheduler(name: "worker", qos: .utility)
/// worker.schedule { print(Schedulers.current === worker) }  // true
///
/// actor Store {
///   nonisolated let scheduler = QueueScheduler(name: "store")
///   nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
/// }  // the actor's code and `deliver(on: store.scheduler)` share one queue
/// ```
///
/// Keep the scheduler alive as long as an actor uses it as its executor (store it in the actor, as above).
///
/// - Note: ReactiveCocoa 2.5 `RACQueueScheduler` and `RACTargetQueueScheduler`
///   (`-initWithName:targetQueue:`); `+schedulerWithPriority:name:` is `init(name:qos:)`, with RAC's
///   priorities High, Default, Low and Background as the QoS classes `.userInitiated`, `.default`,
///   `.utility` and `.background`.
public final class QueueScheduler: Scheduler, SerialExecutor {
  /// The scheduler's name, also the label of its queue.
  ///
  /// ```swift
  /// print(QueueScheduler(name: "images").name)  // images
  /// ```
  public let name: String

  /// The serial queue the scheduler's blocks run on.
  ///
  /// ```swift
  /// // For a Dispatch API that takes a queue; blocks it runs there do not have the scheduler as current.
  /// let timer = DispatchSource.makeTimerSource(queue: worker.queue)
  /// ```
  public let queue: DispatchQueue

  @usableFromInline
  static let mainQueueScheduler = QueueScheduler(mainQueueNamed: "AsyncSignals.main")
  @usableFromInline
  static let background = QueueScheduler(name: "AsyncSignals.background")

  /// Creates a scheduler with a new serial queue.
  ///
  /// ```swift
  /// let images = QueueScheduler(name: "images", qos: .utility)
  /// let io = QueueScheduler(name: "io", targetQueue: .global())  // still first in, first out
  /// ```
  ///
  /// - Parameters:
  ///   - name: The scheduler's name and its queue's label.
  ///   - qos: The quality of service of the blocks.
  ///   - targetQueue: The queue the new serial queue targets, if not the default global queue. Blocks stay
  ///     first in, first out even when the target is concurrent. When the target is another scheduler's queue,
  ///     the new scheduler's blocks run on that queue, and count as running there: an actor whose executor is
  ///     the other scheduler receives isolated deliveries from them at once.
  public init(
    name: String = "AsyncSignals.QueueScheduler", qos: DispatchQoS = .default, targetQueue: DispatchQueue? = nil
  ) {
    self.name = name
    self.queue = DispatchQueue(label: name, qos: qos, target: targetQueue)
    isMainQueueScheduler = false
    queue.setSpecific(key: mark, value: serial)
  }

  /// The main queue's scheduler. (Told by this initialiser, not by comparing queues: on Linux each read of
  /// `DispatchQueue.main` makes a new wrapper of the main queue.)
  private init(mainQueueNamed name: String) {
    self.name = name
    self.queue = .main
    isMainQueueScheduler = true
    queue.setSpecific(key: mark, value: serial)
  }

  deinit {
    // The queue may outlive the scheduler (a timer or a caller keeps it), and Dispatch keys a value by the key's
    // address, which the next allocation of its size reuses: a new `DispatchSpecificKey` of any type would read the
    // mark, and `getSpecific` would cast it unchecked (a crash for a `String` key). So the mark goes with the key.
    queue.setSpecific(key: mark, value: nil)
  }

  // How a scheduler knows that code runs on its queue. Each scheduler sets a key of its own on its queue, with a
  // serial number no other scheduler of the process ever gets. Dispatch looks a key up on the current queue and
  // then on its targets, so code on a queue whose target chain leads to this scheduler's queue (a scheduler made
  // with `targetQueue: queue`, or any queue targeting it) finds the mark too: its blocks run on this queue, one at
  // a time with this queue's own. The serial number, not the key or the scheduler's address, decides: a queue can
  // outlive its scheduler (a timer made on it keeps it), and a later key or scheduler may be allocated at the
  // released one's address, which must not make it current on the old queue. The scheduler also takes its mark off
  // its queue when it is released (`deinit`), so that no key of anybody's allocated at the old key's address finds
  // it there.

  /// Whether this is the main queue's scheduler, whose immediate blocks are main-actor jobs that settling counts.
  private let isMainQueueScheduler: Bool

  /// This scheduler's key for its queue's mark.
  private let mark = DispatchSpecificKey<UInt64>()
  /// This scheduler's serial number: unique in the process, never reused.
  private let serial = QueueScheduler.serials.add(1, ordering: .relaxed).newValue
  private static let serials = Atomic<UInt64>(0)

  /// Whether the calling code runs on this scheduler's queue (a block of the queue, a block of a queue that
  /// targets it, or a job of an actor whose executor this scheduler is). Dispatch answers, not
  /// ``Schedulers/current``, which any code may set with ``Scheduler/performAsCurrent(_:)``.
  @usableFromInline
  var isRunningOnQueue: Bool {
    DispatchQueue.getSpecific(key: mark) == serial
  }

  /// The wall-clock time.
  ///
  /// ```swift
  /// print(worker.now)  // the current date and time
  /// ```
  public var now: Date { Date() }

  /// Runs `action` asynchronously on the queue, after the blocks already scheduled.
  ///
  /// ```swift
  /// worker.schedule { print(Schedulers.current === worker) }  // true, later, on the worker's queue
  /// ```
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    let cancellation = ActionDisposable()
    if isMainQueueScheduler {
      // A main-actor job of the library's: counted until it has run (or found itself cancelled), so that
      // `TestScheduler.settle()` waits for it (MainActorJobs).
      MainActorJobs.enqueueOnMainQueue {
        guard !cancellation.isDisposed else { return }
        self.performAsCurrent(action)
      }
      return cancellation
    }
    queue.async {
      guard !cancellation.isDisposed else { return }
      self.performAsCurrent(action)
    }
    return cancellation
  }

  /// Runs `action` on the queue at or after the wall-clock `date`; as soon as possible if `date` has passed,
  /// however long ago (`Date.distantPast` included).
  ///
  /// ```swift
  /// worker.schedule(after: Date().addingTimeInterval(60)) { print("a minute later, by the wall clock") }
  /// ```
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  public func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    let cancellation = ActionDisposable()
    queue.asyncAfter(wallDeadline: DispatchWallTime(date)) {
      guard !cancellation.isDisposed else { return }
      self.performAsCurrent(action)
    }
    return cancellation
  }

  /// Runs `action` on the queue once `delay` has passed on the monotonic clock.
  ///
  /// ```swift
  /// let retry = worker.schedule(afterDelay: .seconds(2)) { print("retrying") }
  /// retry?.dispose()  // cancels it if it has not started
  /// ```
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    let cancellation = ActionDisposable()
    let deadline = DispatchTime.now() + .nanoseconds(Int(Swift.max(0, delay.clampedNanoseconds)))
    queue.asyncAfter(deadline: deadline) {
      guard !cancellation.isDisposed else { return }
      self.performAsCurrent(action)
    }
    return cancellation
  }

  /// Runs `action` on the queue at the wall-clock `date` and then every `interval`, with a Dispatch timer. A
  /// `date` that has passed, however long ago, starts the timer at once.
  ///
  /// ```swift
  /// let heartbeat = worker.schedule(after: Date(), repeatingEvery: .seconds(30), leeway: .seconds(1)) {
  ///   print("ping")
  /// }
  /// heartbeat?.dispose()  // cancels the timer
  /// ```
  ///
  /// - Returns: A disposable that cancels the timer.
  @discardableResult
  public func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    precondition(interval > .zero, "QueueScheduler.schedule(after:repeatingEvery:leeway:_:): interval must be positive")
    precondition(leeway >= .zero, "QueueScheduler.schedule(after:repeatingEvery:leeway:_:): leeway must not be negative")
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(
      wallDeadline: DispatchWallTime(date),
      repeating: .nanoseconds(Int(interval.clampedNanoseconds)),
      leeway: .nanoseconds(Int(leeway.clampedNanoseconds)))
    // The handler keeps the timer alive until it is cancelled; cancelling releases the handler.
    let handle = TimerHandle(timer)
    timer.setEventHandler { [handle] in
      guard !handle.isCancelled else { return }
      self.performAsCurrent(action)
    }
    timer.resume()
    return ActionDisposable { handle.cancel() }
  }

  // MARK: SerialExecutor

  /// Runs an actor's job on the scheduler's queue, with the scheduler as ``Schedulers/current``.
  ///
  /// ```swift
  /// actor Store {
  ///   nonisolated let scheduler = QueueScheduler(name: "store")
  ///   nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
  ///   func save() { print(Schedulers.current === scheduler) }  // true: the runtime enqueued this job here
  /// }
  /// ```
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async {
      self.performAsCurrent { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
  }

  /// This scheduler as the executor of an actor.
  ///
  /// ```swift
  /// actor Cache {
  ///   nonisolated let scheduler = QueueScheduler(name: "cache")
  ///   nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
  /// }
  /// ```
  public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Stops the program unless the caller is running on the scheduler's queue.
  ///
  /// ```swift
  /// worker.queue.async {
  ///   worker.checkIsolated()  // returns: this is the worker's queue; anywhere else it stops the program
  /// }
  /// ```
  public func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(queue))
  }

  /// Whether the calling code runs on this scheduler's queue, asked by the runtime before ``checkIsolated()``
  /// (SE-0471), so that `assumeIsolated` on an actor whose executor this scheduler is costs a queue-specific
  /// lookup rather than a trap-or-return check.
  ///
  /// A queue that targets this scheduler's queue (a `QueueScheduler(targetQueue: worker.queue)`, say) runs its
  /// blocks on it, one at a time with the queue's own, so the answer there is `true` as well. Each scheduler is
  /// recognised by a serial number of its own, never by its address: a queue that outlives its scheduler never
  /// counts as the queue of a later scheduler.
  ///
  /// ```swift
  /// worker.queue.async { print(worker.isIsolatingCurrentContext() == true) }  // true
  /// let child = QueueScheduler(name: "child", targetQueue: worker.queue)
  /// child.schedule { print(worker.isIsolatingCurrentContext() == true) }  // true: the child runs on the worker's queue
  /// ```
  ///
  /// - Returns: `true` on this scheduler's queue or a queue that targets it, `false` anywhere else; never `nil`
  ///   (unknown).
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  public func isIsolatingCurrentContext() -> Bool? {
    isRunningOnQueue
  }
}

/// A Dispatch timer shared between its event handler and its disposable.
private final class TimerHandle: @unchecked Sendable {
  // guarded by: Dispatch — the one stored property is an immutable reference to a Dispatch timer, whose
  // methods are thread-safe.
  private let timer: any DispatchSourceTimer

  init(_ timer: any DispatchSourceTimer) {
    self.timer = timer
  }

  var isCancelled: Bool { timer.isCancelled }

  func cancel() { timer.cancel() }
}

extension DispatchWallTime {
  /// The Dispatch wall time of a `Date`; a date that has passed is now, "as soon as possible". Dispatch reads a
  /// wall time at or before 1970 (`Date.distantPast` among them) as "forever", so such dates never reach it.
  init(_ date: Date) {
    let seconds = date.timeIntervalSince1970
    guard date > Date() else {
      self = .now()
      return
    }
    let whole = seconds.rounded(.down)
    self.init(timespec: timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000)))
  }
}
