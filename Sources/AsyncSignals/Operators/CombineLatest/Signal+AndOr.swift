extension Signal where Value == Bool {
  /// Whether all of `signals` currently hold `true`: the logical AND of their latest values.
  ///
  /// ``combineLatest(_:)`` followed by the AND of each array: nothing is sent until every signal has sent a
  /// value; the result completes when all of them have completed, and fails with the first failure. An empty
  /// collection gives a signal that completes at once, without a value.
  ///
  /// ```swift
  /// let canSubmit = Signal.and([nameIsValid, emailIsValid, termsAccepted])
  /// ```
  ///
  /// - Parameter signals: The signals of `Bool` to combine, subscribed to in order.
  /// - Returns: A signal of the AND of their latest values.
  /// - Note: ReactiveCocoa 2.5 `-and` applied to `+combineLatest:`, RAC's idiom for it. RAC asserts on an empty
  ///   tuple; an empty collection here simply sends nothing.
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
  public static func or(_ signals: some Sequence<Signal<Bool, Failure>>) -> Signal<Bool, Failure> {
    combineLatest(signals).or()
  }
}

extension Signal where Value == [Bool] {
  /// The logical AND of each array of `Bool`s (`true` for an empty array).
  ///
  /// Plain forwarding: failures and completion pass through, and disposing the result disposes the upstream.
  ///
  /// ```swift
  /// Signal.combineLatest([hasName, hasEmail]).and()  // the same as Signal.and([hasName, hasEmail])
  /// ```
  ///
  /// - Returns: A signal of the AND of each array.
  /// - Note: ReactiveCocoa 2.5 `-and`, on arrays where RAC has `RACTuple`s of `NSNumber`s. RAC asserts on an
  ///   empty tuple; an empty array gives `true`, the AND of nothing. For a tuple of `Bool`s from
  ///   ``combineLatest(_:_:_:)``, ``map(_:)`` it with `&&`.
  public func and() -> Signal<Bool, Failure> {
    map { values in values.allSatisfy { $0 } }
  }

  /// The logical OR of each array of `Bool`s (`false` for an empty array).
  ///
  /// Plain forwarding: failures and completion pass through, and disposing the result disposes the upstream.
  ///
  /// ```swift
  /// Signal.combineLatest([isLoading, isSaving]).or()  // the same as Signal.or([isLoading, isSaving])
  /// ```
  ///
  /// - Returns: A signal of the OR of each array.
  /// - Note: ReactiveCocoa 2.5 `-or`, on arrays where RAC has `RACTuple`s of `NSNumber`s. RAC asserts on an
  ///   empty tuple; an empty array gives `false`, the OR of nothing. For a tuple of `Bool`s from
  ///   ``combineLatest(_:_:_:)``, ``map(_:)`` it with `||`.
  public func or() -> Signal<Bool, Failure> {
    map { values in values.contains(true) }
  }
}
