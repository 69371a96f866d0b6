extension Signal where Value == Bool {
  /// Whether all of `signals` currently hold `true`: the logical AND of their latest values.
  ///
  /// ``combineLatest(_:)`` followed by the AND of each array: nothing is sent until every signal has sent a
  /// value; the result completes when all of them have completed, and fails with the first failure. An empty
  /// collection gives a signal that completes at once, without a value.
  ///
  /// ```swift
  /// let canSubmit = Signal.and([name.map { !$0.isEmpty }, email.map { $0.contains("@") }, accepted])
  /// ```
  ///
  /// - Parameter signals: The signals of `Bool` to combine, subscribed to in order.
  /// - Returns: A signal of the AND of their latest values.
  /// - Note: ReactiveCocoa 2.5 `-and` applied to `+combineLatest:`, RAC's idiom for it. RAC asserts on an empty
  ///   tuple; an empty collection here simply sends nothing.
  @inlinable
  public static func and(_ signals: some Sequence<Signal<Bool, Failure>>) -> Signal<Bool, Failure> {
    combineLatest(signals).and()
  }

  /// Whether any of `signals` currently holds `true`: the logical OR of their latest values.
  ///
  /// ``combineLatest(_:)`` followed by the OR of each array: nothing is sent until every signal has sent a
  /// value; the result completes when all of them have completed, and fails with the first failure. An empty
  /// collection gives a signal that completes at once, without a value.
  ///
  /// ```swift
  /// let isBusy = Signal.or([isLoading, isSaving])
  /// ```
  ///
  /// - Parameter signals: The signals of `Bool` to combine, subscribed to in order.
  /// - Returns: A signal of the OR of their latest values.
  /// - Note: ReactiveCocoa 2.5 `-or` applied to `+combineLatest:`, RAC's idiom for it. RAC asserts on an empty
  ///   tuple; an empty collection here simply sends nothing.
  @inlinable
  public static func or(_ signals: some Sequence<Signal<Bool, Failure>>) -> Signal<Bool, Failure> {
    combineLatest(signals).or()
  }
}
