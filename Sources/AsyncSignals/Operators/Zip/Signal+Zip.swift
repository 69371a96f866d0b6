extension Signal {
  /// Pairs the n-th value of this signal with the n-th value of `other`.
  ///
  /// Values wait in a buffer until the other side has sent its counterpart, so pairs are sent in order and
  /// each value is used once. The result completes as soon as either side has completed with no value left
  /// waiting (a value that can never be paired is never sent), fails with the first failure, and disposes
  /// both subscriptions when it ends or is disposed.
  ///
  /// ```swift
  /// let labelled = names.zip(with: scores).map { "\($0): \($1)" }
  /// ```
  ///
  /// - Parameter other: The signal whose values are paired with this one's.
  /// - Returns: A signal of `(Value, Other)` pairs.
  /// - Note: ReactiveCocoa 2.5 `-zipWith:`. RAC sends each pair while holding its lock; here the lock is
  ///   released first, so a downstream that disposes or subscribes cannot deadlock with the sources. If this
  ///   signal fails or finishes while it is being subscribed to, `other` is not subscribed to at all (RAC
  ///   subscribes to it anyway). RAC's `-reduceEach:` becomes a ``map(_:)`` on the pair.
  @inlinable
  public func zip<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
    AnonymousSignal { observer in
      CombiningStorage<ZipStateMachine<PairBuffers<Value, Other>, Failure>>.attach(self, other, observer: observer)
    }
  }

  /// Combines the n-th values of two or more signals of any types into flat tuples.
  ///
  /// The rules of ``zip(with:)`` at any arity: values wait until every signal has sent its n-th value, each
  /// value is used once, and the tuples come in order. The result completes as soon as one signal has
  /// completed with no value left waiting, fails with the first failure, and disposes every subscription when
  /// it ends or is disposed. The signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let rows = Signal.zip(names, ages, cities)  // Signal<(String, Int, String), Never>
  /// let lines = rows.map { name, age, city in "\(name), \(age), \(city)" }  // RAC's +zip:reduce:
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - rest: Any further signals, in tuple order.
  /// - Returns: A signal of flat tuples, one element per signal.
  /// - Note: ReactiveCocoa 2.5 `+zip:` over signals of different types, typed: RAC's `RACTuple` becomes a Swift
  ///   tuple, and RAC's `+zip:reduce:` and `-reduceEach:` become a ``map(_:)`` on the tuple. RAC folds the
  ///   signals pairwise (one lock per level); here one operator serves all of them. Built on parameter packs,
  ///   so there is no limit on the arity.
  @inlinable
  public static func zip<Second: Sendable, each Rest: Sendable>(
    _ first: Signal<Value, Failure>, _ second: Signal<Second, Failure>, _ rest: repeat Signal<each Rest, Failure>
  ) -> Signal<(Value, Second, repeat each Rest), Failure> {
    let rest = (repeat each rest)
    return AnonymousSignal { observer in
      CombiningStorage<ZipStateMachine<PackBuffers<Value, Second, repeat each Rest>, Failure>>.attach(
        first, second, repeat each rest, observer: observer)
    }
  }

  /// Combines the n-th values of a collection of signals into arrays.
  ///
  /// The rules of ``zip(with:)`` over any number of signals of one type: each array holds the n-th value of
  /// every signal, in collection order. The collection is copied when this method is called. An empty
  /// collection gives a signal that completes at once.
  ///
  /// ```swift
  /// let columns: [Signal<Int, Never>] = [first, second, third]
  /// Signal.zip(columns).subscribeNext { row in print(row) }  // [1, 10, 100], [2, 20, 200], …
  /// ```
  ///
  /// - Parameter signals: The signals to zip, subscribed to in order.
  /// - Returns: A signal of arrays with one value per signal.
  /// - Note: ReactiveCocoa 2.5 `+zip:` (RACStream), with arrays for RAC's `RACTuple`s. RAC folds the collection
  ///   into nested pairwise zips; here one operator serves the whole collection.
  @inlinable
  public static func zip(_ signals: some Sequence<Signal<Value, Failure>>) -> Signal<[Value], Failure> {
    let signals = Array(signals)
    guard !signals.isEmpty else { return .empty }
    return AnonymousSignal { observer in
      CombiningStorage<ZipStateMachine<ArrayBuffers<Value>, Failure>>.attach(signals, observer: observer)
    }
  }
}
