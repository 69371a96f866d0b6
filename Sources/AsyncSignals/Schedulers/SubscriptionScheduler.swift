import Foundation

/// The scheduler subscriptions run on: at once when a scheduler is current or the caller runs in a task,
/// otherwise on a background queue.
///
/// This is how subscribing follows RAC's rules, extended to Swift concurrency (guarantee 5): a signal's subscribe
/// body runs synchronously inside another scheduler's block, on the main queue, or in a task (on an actor or
/// not), and is scheduled on a shared background ``QueueScheduler`` otherwise, so that inside the body
/// ``Schedulers/current`` is never `nil`. Run at once in a task, the body sees this scheduler as current. Dated
/// work goes to the current scheduler, or to the background one when none (other than this one) is current.
///
/// ```swift
/// SubscriptionScheduler.shared.schedule {
///   print(Schedulers.current != nil)  // true, wherever this was called from
/// }
/// ```
///
/// - Note: ReactiveCocoa 2.5 `+subscriptionScheduler` (private in RAC).
public final class SubscriptionScheduler: Scheduler {
  /// The subscription scheduler.
  ///
  /// ```swift
  /// let safely = work.subscribe(on: SubscriptionScheduler.shared)  // also written `.subscription`
  /// ```
  public static let shared = SubscriptionScheduler()

  private init() {}

  /// Where dated work goes: the current scheduler, or the background one when none is current or when the
  /// current one is this scheduler (inside a subscribe body run at once in a task).
  private var target: any Scheduler {
    guard let current = CurrentScheduler.scheduler, current !== self else { return QueueScheduler.background }
    return current
  }

  /// The wall-clock time.
  ///
  /// ```swift
  /// print(SubscriptionScheduler.shared.now)  // the current date and time
  /// ```
  public var now: Date { Date() }

  /// Runs `action` now if a scheduler is current or the caller runs in a task, otherwise on the background
  /// scheduler.
  ///
  /// ```swift
  /// worker.schedule {
  ///   SubscriptionScheduler.shared.schedule { print("at once, on the worker") }  // a scheduler is current
  /// }
  /// ```
  ///
  /// - Returns: `nil` if `action` already ran, otherwise a disposable that cancels it.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    if CurrentScheduler.subscribeAtOnce(action) != nil { return nil }
    return QueueScheduler.background.schedule(action)
  }

  /// Schedules `action` at `date` on the current scheduler, or on the background one.
  ///
  /// ```swift
  /// SubscriptionScheduler.shared.schedule(after: Date().addingTimeInterval(1)) { print("a second later") }
  /// ```
  @discardableResult
  public func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    target.schedule(after: date, action)
  }

  /// Schedules `action` after `delay` on the current scheduler, or on the background one.
  ///
  /// ```swift
  /// worker.schedule {
  ///   SubscriptionScheduler.shared.schedule(afterDelay: .seconds(1)) { print("on the worker, a second later") }
  /// }
  /// ```
  @discardableResult
  public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    target.schedule(afterDelay: delay, action)
  }

  /// Schedules repeating work on the current scheduler, or on the background one.
  ///
  /// ```swift
  /// let polling = SubscriptionScheduler.shared.schedule(
  ///   after: Date(), repeatingEvery: .seconds(5), leeway: .seconds(1)
  /// ) { print("poll") }  // on the current scheduler, or the background one
  /// polling?.dispose()
  /// ```
  @discardableResult
  public func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    target.schedule(after: date, repeatingEvery: interval, leeway: leeway, action)
  }
}
