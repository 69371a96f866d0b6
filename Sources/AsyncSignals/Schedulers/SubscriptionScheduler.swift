import Foundation

/// The scheduler subscriptions run on: at once when a scheduler is current, otherwise on a background queue.
///
/// This is how subscribing follows RAC's rules (guarantee 5): a signal's subscribe body runs synchronously
/// inside another scheduler's block or on the main queue, and is scheduled on a shared background
/// ``QueueScheduler`` otherwise, so that inside the body ``Schedulers/current`` is never `nil`. Dated work
/// goes to the current scheduler, or to the background one.
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
  public static let shared = SubscriptionScheduler()

  private init() {}

  private var target: any Scheduler {
    CurrentScheduler.scheduler ?? QueueScheduler.background
  }

  /// The wall-clock time.
  public var now: Date { Date() }

  /// Runs `action` now if a scheduler is current, otherwise on the background scheduler.
  ///
  /// - Returns: `nil` if `action` already ran, otherwise a disposable that cancels it.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    if CurrentScheduler.isSet {
      action()
      return nil
    }
    return QueueScheduler.background.schedule(action)
  }

  /// Schedules `action` at `date` on the current scheduler, or on the background one.
  @discardableResult
  public func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    target.schedule(after: date, action)
  }

  /// Schedules `action` after `delay` on the current scheduler, or on the background one.
  @discardableResult
  public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    target.schedule(afterDelay: delay, action)
  }

  /// Schedules repeating work on the current scheduler, or on the background one.
  @discardableResult
  public func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    target.schedule(after: date, repeatingEvery: interval, leeway: leeway, action)
  }
}
