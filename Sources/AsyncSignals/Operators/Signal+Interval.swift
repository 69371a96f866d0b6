import Foundation

extension Signal where Value == Date, Failure == Never {
  /// Sends the scheduler's current date every `interval`, forever.
  ///
  /// The first date comes `interval` after the subscription, then one every `interval`, each sent on
  /// `scheduler` with the time that scheduler reads (virtual time on a ``TestScheduler``). The signal never
  /// completes; disposing the subscription stops the timer.
  ///
  /// ```swift
  /// let clock = Signal.interval(.seconds(1), on: .main)
  /// clock.subscribeNext { now in show(now) }  // the current date, every second, on the main queue
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between dates; must be positive.
  ///   - scheduler: The scheduler that sends the dates; not the immediate scheduler, which cannot repeat work.
  ///   - leeway: How late a date may be sent, as a hint to the system for saving power; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of dates that never terminates.
  /// - Note: ReactiveCocoa 2.5 `+interval:onScheduler:` and `+interval:onScheduler:withLeeway:`. RAC sent
  ///   `[NSDate date]`, the wall clock; here the date is the scheduler's ``Scheduler/now``, so that tests on a
  ///   ``TestScheduler`` see exact virtual times.
  public static func interval(
    _ interval: Duration, on scheduler: any Scheduler, leeway: Duration = .zero,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Date, Never> {
    precondition(interval > .zero, "interval(_:on:leeway:): interval must be positive", file: file, line: line)
    precondition(leeway >= .zero, "interval(_:on:leeway:): leeway must not be negative", file: file, line: line)
    precondition(
      scheduler !== ImmediateScheduler.shared, "interval(_:on:leeway:): scheduler must not be the immediate scheduler",
      file: file, line: line)
    return AnonymousSignal { observer in
      let sink = Sink.make(observer)
      let start = scheduler.now.addingTimeInterval(interval.timeInterval)
      let tick: @Sendable () -> Void = { sink.sendNext(scheduler.now) }
      if let timer = scheduler.schedule(after: start, repeatingEvery: interval, leeway: leeway, tick) {
        sink.addChild(timer)
      }
      return sink
    }
  }
}
