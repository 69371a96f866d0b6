import Foundation

/// A scheduler that runs each block at once, on the calling thread.
///
/// `schedule(after:)` blocks the caller until the date; repeating work is a programming error. Unlike the
/// other schedulers it does not become ``Schedulers/current`` while it runs a block, as in RAC.
/// ``Scheduler/scheduleRecursive(_:)`` still runs in constant stack depth.
///
/// ```swift
/// ImmediateScheduler.shared.schedule { print("now") }
/// print("after")  // "now" was printed first
/// ```
///
/// - Note: ReactiveCocoa 2.5 `+immediateScheduler`.
public final class ImmediateScheduler: Scheduler {
  /// The immediate scheduler.
  ///
  /// ```swift
  /// let scheduler: any Scheduler = ImmediateScheduler.shared  // `.immediate` where the type is known
  /// scheduler.schedule { print("now") }  // before `schedule` returns
  /// ```
  public static let shared = ImmediateScheduler()

  private init() {}

  /// The wall-clock time.
  ///
  /// ```swift
  /// print(ImmediateScheduler.shared.now)  // the current date and time
  /// ```
  public var now: Date { Date() }

  /// Runs `action` before returning; returns `nil`, as there is nothing left to cancel.
  ///
  /// ```swift
  /// ImmediateScheduler.shared.schedule { print("first") }
  /// print("second")
  /// ```
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    action()
    return nil
  }

  /// Blocks the calling thread until `date`, then runs `action`; returns `nil`.
  ///
  /// ```swift
  /// ImmediateScheduler.shared.schedule(after: Date().addingTimeInterval(0.1)) { print("done") }  // the caller waits
  /// ```
  @discardableResult
  public func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    Thread.sleep(until: date)
    action()
    return nil
  }

  /// Blocks the calling thread for `delay`, then runs `action`; returns `nil`.
  ///
  /// ```swift
  /// ImmediateScheduler.shared.schedule(afterDelay: .milliseconds(100)) { print("done") }  // the caller waits 0.1 s
  /// ```
  @discardableResult
  public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    if delay > .zero { Thread.sleep(forTimeInterval: delay.timeInterval) }
    action()
    return nil
  }

  /// Stops the program: the immediate scheduler cannot repeat work, as in RAC.
  ///
  /// ```swift
  /// // Not here: repeat on a scheduler with a queue or a virtual clock instead.
  /// worker.schedule(after: Date(), repeatingEvery: .seconds(1), leeway: .zero) { print("tick") }
  /// ```
  @discardableResult
  public func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    preconditionFailure(
      "ImmediateScheduler.schedule(after:repeatingEvery:leeway:_:): the immediate scheduler cannot repeat work")
  }
}
