extension Signal {
  /// Forwards this signal until `trigger` sends a value or completes, then completes.
  ///
  /// `trigger` is subscribed to first: if it fires at once, this signal is never subscribed to. The result
  /// also ends with this signal's own completion or failure, and fails if `trigger` fails. Ending or disposing
  /// it disposes both.
  ///
  /// ```swift
  /// let ticksUntilStop = ticks.take(until: buttonTaps)  // completes at the first tap
  /// ```
  ///
  /// - Parameter trigger: The signal whose first value or completion ends the result; its values are ignored.
  /// - Returns: This signal's events up to the trigger.
  /// - Note: ReactiveCocoa 2.5 `-takeUntil:`. RAC ignores a failure of the trigger (the result goes on); with
  ///   typed failures the trigger's failure fails the result instead, so that it is never dropped silently.
  ///   The trigger shares this signal's `Failure`: promote a trigger that cannot fail to it first.
  @inlinable
  public func take<Trigger: Sendable>(until trigger: Signal<Trigger, Failure>) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      TakeUntilStorage.attach(self, until: trigger, observer: observer)
    }
  }

  /// Forwards this signal until `replacement` sends its first event, then forwards only `replacement`.
  ///
  /// `replacement` is subscribed to first: if it sends anything at once, this signal is never subscribed to (its
  /// subscribe body does not run). This signal's values and failure pass through until then; its
  /// completion does not end the result, which ends only with `replacement`'s terminal event (or this
  /// signal's failure before the replacement). At `replacement`'s first event, this signal is disposed.
  /// Ending or disposing the result disposes both.
  ///
  /// ```swift
  /// let items = cachedItems.take(untilReplacement: api.items())  // the cached items until fresh ones arrive
  /// ```
  ///
  /// - Parameter replacement: The signal that takes over.
  /// - Returns: This signal's values, then `replacement`'s events.
  /// - Note: ReactiveCocoa 2.5 `-takeUntilReplacement:`.
  @inlinable
  public func take(untilReplacement replacement: Signal<Value, Failure>) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      TakeUntilStorage.attach(self, untilReplacement: replacement, observer: observer)
    }
  }
}
