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
      ZipPairStorage.attach(self, other, observer: observer)
    }
  }

  /// Combines the n-th values of 2 signals of any types into flat tuples.
  ///
  /// The rules of ``zip(with:)``: values wait until every signal has sent its n-th value, each value is used once,
  /// and the tuples come in order. The result completes as soon as one signal has completed with no value left
  /// waiting, fails with the first failure, and disposes every subscription when it ends or is disposed. The
  /// signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let pairs = Signal.zip(names, ages)  // Signal<(String, Int), Never>
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  /// - Returns: A signal of 2-tuples.
  /// - Note: ReactiveCocoa 2.5 `+zip:` over signals of different types, typed: RAC's `RACTuple` becomes a Swift
  ///   tuple, and `+zip:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in RAC, a fold of pairwise
  ///   ``zip(with:)``, which specialises in the caller's module. For more signals of one type, ``zip(_:)``.
  @inlinable
  public static func zip<Second: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>
  ) -> Signal<(Value, Second), Failure> {
    first.zip(with: second)
  }

  /// Combines the n-th values of 3 signals of any types into flat tuples.
  ///
  /// The rules of ``zip(with:)``: values wait until every signal has sent its n-th value, each value is used once,
  /// and the tuples come in order. The result completes as soon as one signal has completed with no value left
  /// waiting, fails with the first failure, and disposes every subscription when it ends or is disposed. The
  /// signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let rows = Signal.zip(names, ages, cities).map { name, age, city in "\(name), \(age), \(city)" }
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - third: The signal whose values come third.
  /// - Returns: A signal of 3-tuples.
  /// - Note: ReactiveCocoa 2.5 `+zip:` over signals of different types, typed: RAC's `RACTuple` becomes a Swift
  ///   tuple, and `+zip:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in RAC, a fold of pairwise
  ///   ``zip(with:)``, which specialises in the caller's module. For more signals of one type, ``zip(_:)``.
  @inlinable
  public static func zip<Second: Sendable, Third: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>
  ) -> Signal<(Value, Second, Third), Failure> {
    first.zip(with: second).zip(with: third).map { nested in
      let ((a, b), c) = nested
      return (a, b, c)
    }
  }

  /// Combines the n-th values of 4 signals of any types into flat tuples.
  ///
  /// The rules of ``zip(with:)``: values wait until every signal has sent its n-th value, each value is used once,
  /// and the tuples come in order. The result completes as soon as one signal has completed with no value left
  /// waiting, fails with the first failure, and disposes every subscription when it ends or is disposed. The
  /// signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let rows = Signal.zip(ids, names, ages, cities)  // Signal<(Int, String, Int, String), Never>
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - third: The signal whose values come third.
  ///   - fourth: The signal whose values come fourth.
  /// - Returns: A signal of 4-tuples.
  /// - Note: ReactiveCocoa 2.5 `+zip:` over signals of different types, typed: RAC's `RACTuple` becomes a Swift
  ///   tuple, and `+zip:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in RAC, a fold of pairwise
  ///   ``zip(with:)``, which specialises in the caller's module. For more signals of one type, ``zip(_:)``.
  @inlinable
  public static func zip<Second: Sendable, Third: Sendable, Fourth: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>,
    _ fourth: Signal<Fourth, Failure>
  ) -> Signal<(Value, Second, Third, Fourth), Failure> {
    first.zip(with: second).zip(with: third).zip(with: fourth).map { nested in
      let (((a, b), c), d) = nested
      return (a, b, c, d)
    }
  }

  /// Combines the n-th values of 5 signals of any types into flat tuples.
  ///
  /// The rules of ``zip(with:)``: values wait until every signal has sent its n-th value, each value is used once,
  /// and the tuples come in order. The result completes as soon as one signal has completed with no value left
  /// waiting, fails with the first failure, and disposes every subscription when it ends or is disposed. The
  /// signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let rows = Signal.zip(ids, names, ages, cities, emails)
  /// ```
  ///
  /// - Parameters:
  ///   - first: The signal whose values come first in each tuple.
  ///   - second: The signal whose values come second.
  ///   - third: The signal whose values come third.
  ///   - fourth: The signal whose values come fourth.
  ///   - fifth: The signal whose values come fifth.
  /// - Returns: A signal of 5-tuples.
  /// - Note: ReactiveCocoa 2.5 `+zip:` over signals of different types, typed: RAC's `RACTuple` becomes a Swift
  ///   tuple, and `+zip:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in RAC, a fold of pairwise
  ///   ``zip(with:)``, which specialises in the caller's module. For more signals of one type, ``zip(_:)``.
  @inlinable
  public static func zip<Second: Sendable, Third: Sendable, Fourth: Sendable, Fifth: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>,
    _ fourth: Signal<Fourth, Failure>,
    _ fifth: Signal<Fifth, Failure>
  ) -> Signal<(Value, Second, Third, Fourth, Fifth), Failure> {
    first.zip(with: second).zip(with: third).zip(with: fourth).zip(with: fifth).map { nested in
      let ((((a, b), c), d), e) = nested
      return (a, b, c, d, e)
    }
  }

  /// Combines the n-th values of 6 signals of any types into flat tuples.
  ///
  /// The rules of ``zip(with:)``: values wait until every signal has sent its n-th value, each value is used once,
  /// and the tuples come in order. The result completes as soon as one signal has completed with no value left
  /// waiting, fails with the first failure, and disposes every subscription when it ends or is disposed. The
  /// signals are subscribed to in argument order.
  ///
  /// ```swift
  /// let rows = Signal.zip(ids, names, ages, cities, emails, phones)
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
  /// - Note: ReactiveCocoa 2.5 `+zip:` over signals of different types, typed: RAC's `RACTuple` becomes a Swift
  ///   tuple, and `+zip:reduce:` and `-reduceEach:` become a ``map(_:)`` on it. As in RAC, a fold of pairwise
  ///   ``zip(with:)``, which specialises in the caller's module. For more signals of one type, ``zip(_:)``.
  @inlinable
  public static func zip<Second: Sendable, Third: Sendable, Fourth: Sendable, Fifth: Sendable, Sixth: Sendable>(
    _ first: Signal<Value, Failure>,
    _ second: Signal<Second, Failure>,
    _ third: Signal<Third, Failure>,
    _ fourth: Signal<Fourth, Failure>,
    _ fifth: Signal<Fifth, Failure>,
    _ sixth: Signal<Sixth, Failure>
  ) -> Signal<(Value, Second, Third, Fourth, Fifth, Sixth), Failure> {
    first.zip(with: second).zip(with: third).zip(with: fourth).zip(with: fifth).zip(with: sixth).map { nested in
      let (((((a, b), c), d), e), f) = nested
      return (a, b, c, d, e, f)
    }
  }

  /// Combines the n-th values of a collection of signals into arrays.
  ///
  /// The rules of ``zip(with:)`` over any number of signals of one type: each array holds the n-th value of
  /// every signal, in collection order. The collection is copied when this method is called. An empty
  /// collection gives a signal that completes at once.
  ///
  /// ```swift
  /// let columns: [Signal<Int, Never>] = [.from([1, 2]), .from([10, 20]), .from([100, 200])]
  /// Signal.zip(columns).subscribeNext { row in print(row) }  // [1, 10, 100], [2, 20, 200]
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
