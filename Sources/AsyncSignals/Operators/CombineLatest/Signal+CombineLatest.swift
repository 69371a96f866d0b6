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

  /// Combines the latest values of two or more signals of any types into flat tuples, whenever any of them
  /// sends.
  ///
  /// The rules of ``combineLatest(with:)`` at any arity: nothing is sent until every signal has sent a value;
  /// the result completes when every signal has completed and fails with the first failure; ending or
  /// disposing it disposes every subscription. The signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let form = Signal.combineLatest(name, email, accepted)  // Signal<(String, String, Bool), Never>
  /// let canSubmit = form.map { name, email, accepted in !name.isEmpty && email.contains("@") && accepted }
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose latest value comes first in each tuple.
  ///   - second: The signal whose latest value comes second.
  ///   - rest: Any further signals, in tuple order.
  /// - Returns: A signal of flat tuples, one element per signal.
  /// - Note: ReactiveCocoa 2.5 `+combineLatest:` over signals of different types, typed: RAC's `RACTuple`
  ///   becomes a Swift tuple, and RAC's `+combineLatest:reduce:` and `-reduceEach:` become a ``map(_:)`` on the
  ///   tuple. RAC folds the signals pairwise; here one operator serves all of them. Built on parameter packs,
  ///   so there is no limit on the arity.
  @inlinable
  public static func combineLatest<Second: Sendable, each Rest: Sendable>(
    _ first: Signal<Value, Failure>, _ second: Signal<Second, Failure>, _ rest: repeat Signal<each Rest, Failure>
  ) -> Signal<(Value, Second, repeat each Rest), Failure> {
    let rest = (repeat each rest)
    return AnonymousSignal { observer in
      CombiningStorage<CombineLatestStateMachine<PackBuffers<Value, Second, repeat each Rest>, Failure>>.attach(
        first, second, repeat each rest, observer: observer)
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
