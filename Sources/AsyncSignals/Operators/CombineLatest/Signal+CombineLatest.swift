extension Signal {
  /// Pairs the latest value of this signal with the latest value of `other` whenever either one sends.
  ///
  /// Sends nothing until both have sent. Fails when either fails; completes when both complete — a side that
  /// completes without having sent a value leaves the result silent until the other completes too. Disposing
  /// the result, or its termination, disposes both subscriptions.
  ///
  /// ```swift
  /// let fullName = firstName.combineLatest(with: lastName).map { "\($0) \($1)" }
  /// ```
  ///
  /// - Parameter other: The signal whose latest value is paired with this one's.
  /// - Returns: A signal of `(Value, Other)` pairs.
  /// - Note: ReactiveCocoa 2.5 `-combineLatestWith:`. RAC sends each pair while holding its lock; here the lock
  ///   is released first. If this signal fails while it is being subscribed to, `other` is not subscribed to
  ///   at all (RAC subscribes to it anyway). RAC's `-reduceEach:` becomes a ``map(_:)`` on the pair.
  @inlinable
  public func combineLatest<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
    AnonymousSignal { observer in
      CombiningStorage<CombineLatestStateMachine<PairBuffers<Value, Other>, Failure>>.attach(
        self, other, observer: observer)
    }
  }

  /// Combines the latest values of 2 signals of any types into flat tuples, whenever any of them sends.
  ///
  /// The rules of ``combineLatest(with:)``: nothing is sent until every signal has sent a value; the result
  /// completes when every signal has completed, fails with the first failure, and disposes every subscription
  /// when it ends or is disposed. The signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let fullName = Signal.combineLatest(firstName, lastName).map { "\($0) \($1)" }
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  /// - Returns: A signal of 2-tuples.
  /// - Note: ReactiveCocoa 2.5 `+combineLatest:` over signals of different types, typed: RAC's `RACTuple`
  ///   becomes a Swift tuple, and `+combineLatest:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in
  ///   RAC, a fold of pairwise ``combineLatest(with:)``, which specialises in the caller's module. For more
  ///   signals of one type, ``combineLatest(_:)``.
  @inlinable
  public static func combineLatest<Second: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>
  ) -> Signal<(Value, Second), Failure> {
    first.combineLatest(with: second)
  }

  /// Combines the latest values of 3 signals of any types into flat tuples, whenever any of them sends.
  ///
  /// The rules of ``combineLatest(with:)``: nothing is sent until every signal has sent a value; the result
  /// completes when every signal has completed, fails with the first failure, and disposes every subscription
  /// when it ends or is disposed. The signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let canSubmit = Signal.combineLatest(name, email, accepted).map { !$0.isEmpty && $1.contains("@") && $2 }
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - third: The signal whose values come third.
  /// - Returns: A signal of 3-tuples.
  /// - Note: ReactiveCocoa 2.5 `+combineLatest:` over signals of different types, typed: RAC's `RACTuple`
  ///   becomes a Swift tuple, and `+combineLatest:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in
  ///   RAC, a fold of pairwise ``combineLatest(with:)``, which specialises in the caller's module. For more
  ///   signals of one type, ``combineLatest(_:)``.
  @inlinable
  public static func combineLatest<Second: Sendable, Third: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>
  ) -> Signal<(Value, Second, Third), Failure> {
    first.combineLatest(with: second).combineLatest(with: third).map { nested in
      let ((a, b), c) = nested
      return (a, b, c)
    }
  }

  /// Combines the latest values of 4 signals of any types into flat tuples, whenever any of them sends.
  ///
  /// The rules of ``combineLatest(with:)``: nothing is sent until every signal has sent a value; the result
  /// completes when every signal has completed, fails with the first failure, and disposes every subscription
  /// when it ends or is disposed. The signals are subscribed to in argument order.
  ///
  /// ```swift
  /// // Signal<(String, SearchScope, SortKey, Int), Never>: a new query whenever any part changes
  /// let query = Signal.combineLatest(searchText, scope, sortKey, pageNumber)
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - third: The signal whose values come third.
  ///   - fourth: The signal whose values come fourth.
  /// - Returns: A signal of 4-tuples.
  /// - Note: ReactiveCocoa 2.5 `+combineLatest:` over signals of different types, typed: RAC's `RACTuple`
  ///   becomes a Swift tuple, and `+combineLatest:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in
  ///   RAC, a fold of pairwise ``combineLatest(with:)``, which specialises in the caller's module. For more
  ///   signals of one type, ``combineLatest(_:)``.
  @inlinable
  public static func combineLatest<Second: Sendable, Third: Sendable, Fourth: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>,
    _ fourth: Signal<Fourth, Failure>
  ) -> Signal<(Value, Second, Third, Fourth), Failure> {
    first.combineLatest(with: second).combineLatest(with: third).combineLatest(with: fourth).map { nested in
      let (((a, b), c), d) = nested
      return (a, b, c, d)
    }
  }

  /// Combines the latest values of 5 signals of any types into flat tuples, whenever any of them sends.
  ///
  /// The rules of ``combineLatest(with:)``: nothing is sent until every signal has sent a value; the result
  /// completes when every signal has completed, fails with the first failure, and disposes every subscription
  /// when it ends or is disposed. The signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let settings = Signal.combineLatest(theme, fontName, fontSize, lineSpacing, language)
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - third: The signal whose values come third.
  ///   - fourth: The signal whose values come fourth.
  ///   - fifth: The signal whose values come fifth.
  /// - Returns: A signal of 5-tuples.
  /// - Note: ReactiveCocoa 2.5 `+combineLatest:` over signals of different types, typed: RAC's `RACTuple`
  ///   becomes a Swift tuple, and `+combineLatest:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in
  ///   RAC, a fold of pairwise ``combineLatest(with:)``, which specialises in the caller's module. For more
  ///   signals of one type, ``combineLatest(_:)``.
  @inlinable
  public static func combineLatest<Second: Sendable, Third: Sendable, Fourth: Sendable, Fifth: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>,
    _ fourth: Signal<Fourth, Failure>,
    _ fifth: Signal<Fifth, Failure>
  ) -> Signal<(Value, Second, Third, Fourth, Fifth), Failure> {
    first.combineLatest(with: second).combineLatest(with: third).combineLatest(with: fourth).combineLatest(with: fifth).map { nested in
      let ((((a, b), c), d), e) = nested
      return (a, b, c, d, e)
    }
  }

  /// Combines the latest values of 6 signals of any types into flat tuples, whenever any of them sends.
  ///
  /// The rules of ``combineLatest(with:)``: nothing is sent until every signal has sent a value; the result
  /// completes when every signal has completed, fails with the first failure, and disposes every subscription
  /// when it ends or is disposed. The signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let form = Signal.combineLatest(name, email, phone, street, city, accepted)
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - third: The signal whose values come third.
  ///   - fourth: The signal whose values come fourth.
  ///   - fifth: The signal whose values come fifth.
  ///   - sixth: The signal whose values come sixth.
  /// - Returns: A signal of 6-tuples.
  /// - Note: ReactiveCocoa 2.5 `+combineLatest:` over signals of different types, typed: RAC's `RACTuple`
  ///   becomes a Swift tuple, and `+combineLatest:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in
  ///   RAC, a fold of pairwise ``combineLatest(with:)``, which specialises in the caller's module. For more
  ///   signals of one type, ``combineLatest(_:)``.
  @inlinable
  public static func combineLatest<Second: Sendable, Third: Sendable, Fourth: Sendable, Fifth: Sendable, Sixth: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>,
    _ fourth: Signal<Fourth, Failure>,
    _ fifth: Signal<Fifth, Failure>,
    _ sixth: Signal<Sixth, Failure>
  ) -> Signal<(Value, Second, Third, Fourth, Fifth, Sixth), Failure> {
    first.combineLatest(with: second).combineLatest(with: third).combineLatest(with: fourth).combineLatest(with: fifth).combineLatest(with: sixth).map { nested in
      let (((((a, b), c), d), e), f) = nested
      return (a, b, c, d, e, f)
    }
  }

  /// Combines the latest values of a collection of signals into arrays, whenever any of them sends.
  ///
  /// The rules of ``combineLatest(with:)`` over any number of signals of one type: each array holds the latest
  /// value of every signal, in collection order. The collection is copied when this method is called. An empty
  /// collection gives a signal that completes at once.
  ///
  /// ```swift
  /// let totals = Signal.combineLatest(cartLines).map { $0.reduce(0, +) }  // RAC's +combineLatest:reduce:
  /// ```
  ///
  /// - Parameter signals: The signals to combine, subscribed to in order.
  /// - Returns: A signal of arrays with one value per signal.
  /// - Note: ReactiveCocoa 2.5 `+combineLatest:`, with arrays for RAC's `RACTuple`s; `+combineLatest:reduce:`
  ///   becomes a ``map(_:)`` on the array.
  @inlinable
  public static func combineLatest(_ signals: some Sequence<Signal<Value, Failure>>) -> Signal<[Value], Failure> {
    let signals = Array(signals)
    guard !signals.isEmpty else { return .empty }
    return AnonymousSignal { observer in
      CombiningStorage<CombineLatestStateMachine<ArrayBuffers<Value>, Failure>>.attach(signals, observer: observer)
    }
  }
}
