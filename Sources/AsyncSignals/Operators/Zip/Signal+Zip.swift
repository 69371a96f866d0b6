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
  ///   released first, so a downstream that disposes or subscribes cannot deadlock with the sources.
  @inlinable
  public func zip<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
    AnonymousSignal { observer in
      ZipStorage.attach(self, other, observer)
    }
  }
}
