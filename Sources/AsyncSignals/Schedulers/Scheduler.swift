import Foundation

/// Runs work in order: now, at a date, after a delay, repeatedly, or recursively.
///
/// Schedulers are serial: blocks scheduled on one run one at a time, in the order they were scheduled
/// (first in, first out), never preempting one another. While a scheduler runs a block,
/// ``Schedulers/current`` is that scheduler, which is how signals know where they are (guarantee 5).
///
/// ```swift
/// let scheduler = QueueScheduler(name: "worker")
/// scheduler.schedule { print("on the worker queue") }
/// let ticking = scheduler.schedule(after: Date(), repeatingEvery: .seconds(1), leeway: .zero) {
///   print("tick")
/// }
/// ticking?.dispose()  // stops the ticks
/// ```
///
/// Implementations: ``ImmediateScheduler``, ``QueueScheduler`` (including the main queue),
/// ``SubscriptionScheduler`` and the virtual-time ``TestScheduler``. A scheduler of your own must run each
/// block through ``performAsCurrent(_:)``.
///
/// - Note: ReactiveCocoa 2.5 `RACScheduler`. RAC's `NSTimeInterval` delays are `Duration`s here.
public protocol Scheduler: AnyObject, Sendable {
  /// The scheduler's notion of the current time: the wall clock, or virtual time for a ``TestScheduler``.
  ///
  /// ```swift
  /// let deadline = scheduler.now.addingTimeInterval(5)  // five seconds from now, on this clock
  /// ```
  var now: Date { get }

  /// Runs `action` on this scheduler, after the blocks already scheduled.
  ///
  /// ```swift
  /// let pending = scheduler.schedule { print("on the scheduler") }
  /// pending?.dispose()  // cancels it if it has not started
  /// ```
  ///
  /// - Parameter action: The work.
  /// - Returns: A disposable that cancels `action` if it has not started, or `nil` if this scheduler cannot
  ///   cancel (it runs `action` before returning).
  /// - Note: ReactiveCocoa 2.5 `-schedule:`.
  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)?

  /// Runs `action` on this scheduler at or after `date`, without preempting running work. A `date` that has
  /// passed, however long ago (`Date.distantPast` included), means as soon as possible.
  ///
  /// ```swift
  /// scheduler.schedule(after: scheduler.now.addingTimeInterval(1)) { print("a second later") }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The earliest time to run `action`, on this scheduler's clock.
  ///   - action: The work.
  /// - Returns: A disposable that cancels `action` if it has not started, or `nil`.
  /// - Note: ReactiveCocoa 2.5 `-after:schedule:`.
  @discardableResult
  func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)?

  /// Runs `action` on this scheduler once `delay` has passed.
  ///
  /// ```swift
  /// scheduler.schedule(afterDelay: .milliseconds(250)) { print("a quarter of a second later") }
  /// ```
  ///
  /// - Parameters:
  ///   - delay: How long to wait; a negative delay counts as zero.
  ///   - action: The work.
  /// - Returns: A disposable that cancels `action` if it has not started, or `nil`.
  /// - Note: ReactiveCocoa 2.5 `-afterDelay:schedule:`.
  @discardableResult
  func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)?

  /// Runs `action` at `date` and then every `interval` until the returned disposable is disposed.
  ///
  /// ```swift
  /// let heartbeat = scheduler.schedule(after: scheduler.now, repeatingEvery: .seconds(30), leeway: .seconds(1)) {
  ///   print("ping")
  /// }
  /// heartbeat?.dispose()  // stops the repetition
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs; must be positive.
  ///   - leeway: How late a run may be, as a hint to the system for saving power; must not be negative.
  ///   - action: The work.
  /// - Returns: A disposable that stops the repetition, or `nil` if this scheduler cannot repeat.
  /// - Note: ReactiveCocoa 2.5 `-after:repeatingEvery:withLeeway:schedule:`.
  @discardableResult
  func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)?
}

extension Scheduler {
  /// Schedules `action` at `now + delay` through ``schedule(after:_:)``.
  ///
  /// ```swift
  /// // A scheduler of your own gets it from its schedule(after:_:):
  /// CustomScheduler().schedule(afterDelay: .seconds(1)) { print("a second after its `now`") }
  /// ```
  @discardableResult
  public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    schedule(after: now.addingTimeInterval(Swift.max(0, delay.timeInterval)), action)
  }

  /// Runs `action` at `date` and then every `interval`, with no leeway.
  ///
  /// ```swift
  /// scheduler.schedule(after: Date(), repeatingEvery: .seconds(1)) { print("tick") }
  /// ```
  @discardableResult
  public func schedule(
    after date: Date, repeatingEvery interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    schedule(after: date, repeatingEvery: interval, leeway: .zero, action)
  }

  /// Runs `action`, and runs it again each time it calls the `reschedule` closure it is given.
  ///
  /// Recursion is turned into iteration: a `reschedule` call made while `action` runs takes effect after
  /// `action` returns, so the stack stays the same depth however many times the work repeats, even on a
  /// scheduler that runs blocks synchronously (guarantee 7). Disposing the result stops the repetition.
  ///
  /// ```swift
  /// let countdown = Counter(3)  // some thread-safe counter of your own
  /// scheduler.scheduleRecursive { reschedule in
  ///   print(countdown.decrement())
  ///   if countdown.value > 0 { reschedule() }
  /// }
  /// ```
  ///
  /// - Parameter action: The work; it receives the closure that schedules it once more.
  /// - Returns: A disposable that stops further repetitions.
  /// - Note: ReactiveCocoa 2.5 `-scheduleRecursiveBlock:`.
  @discardableResult
  public func scheduleRecursive(
    _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
  ) -> any Disposable {
    let recursion = RecursiveScheduling(scheduler: self, action: action)
    recursion.scheduleNext()
    return recursion
  }

  /// Runs `body` with this scheduler as ``Schedulers/current`` on the calling thread, restoring the previous
  /// current scheduler afterwards.
  ///
  /// A scheduler of your own calls it around every block it runs, so that signals subscribed inside know
  /// where they are.
  ///
  /// ```swift
  /// extension CustomScheduler {
  ///   func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
  ///     queue.async { self.performAsCurrent(action) }
  ///     return nil
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter body: The work to run as this scheduler.
  /// - Returns: What `body` returns.
  /// - Note: ReactiveCocoa 2.5 `-performAsCurrentScheduler:` (RACScheduler+Subclass.h).
  public func performAsCurrent<Result>(_ body: () -> Result) -> Result {
    CurrentScheduler.perform(as: self, body)
  }
}

extension Scheduler where Self == ImmediateScheduler {
  /// The scheduler that runs blocks at once, on the calling thread: ``ImmediateScheduler/shared``.
  ///
  /// ```swift
  /// // On the main actor or in a task, the subscription runs at once, and so does the walk:
  /// MemoizedSequence([1, 2, 3]).signal(on: .immediate).subscribeNext { print($0) }  // 1, 2, 3, at once
  /// ```
  public static var immediate: ImmediateScheduler { .shared }
}

extension Scheduler where Self == QueueScheduler {
  /// The scheduler of the main queue, which always runs blocks asynchronously.
  ///
  /// On Linux, code on the main queue may run on a thread other than the process's first one once
  /// `dispatchMain()` has been called (Swift Testing does); "main" here always means the main queue.
  ///
  /// ```swift
  /// results.deliver(on: .main).subscribeNext { print("on the main queue:", $0) }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `+mainThreadScheduler`.
  public static var main: QueueScheduler { QueueScheduler.mainQueueScheduler }
}

extension Scheduler where Self == SubscriptionScheduler {
  /// The scheduler that subscriptions run on: ``SubscriptionScheduler/shared``.
  ///
  /// ```swift
  /// let safely = work.subscribe(on: .subscription)  // at once on a scheduler, else in the background
  /// ```
  public static var subscription: SubscriptionScheduler { .shared }
}

/// Where schedulers meet the calling thread.
///
/// ```swift
/// if Schedulers.current == nil { print("not inside a scheduler's block, nor on the main queue") }
/// ```
///
/// - Note: ReactiveCocoa 2.5 `+[RACScheduler currentScheduler]`. Swift cannot declare a static property
///   that is read through a protocol's name, so it lives here rather than on ``Scheduler``.
public enum Schedulers {
  /// The scheduler running the current block, or the main queue's scheduler on the main queue, otherwise
  /// `nil`.
  ///
  /// Inside a signal's subscribe body it is never `nil` (guarantee 5): there it is the scheduler the body was
  /// subscribed from, the main queue's, the background one, or ``SubscriptionScheduler/shared`` for a body run at
  /// once in a task.
  ///
  /// ```swift
  /// QueueScheduler(name: "worker").schedule {
  ///   print(Schedulers.current != nil)  // true
  /// }
  /// ```
  public static var current: (any Scheduler)? {
    CurrentScheduler.scheduler
  }
}

extension Duration {
  /// The duration in nanoseconds, clamped to the range of `Int64`.
  @usableFromInline
  var clampedNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (total, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflow2 { return seconds < 0 ? .min : .max }
    return total
  }

  /// The duration in seconds, as Foundation measures time.
  @usableFromInline
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
