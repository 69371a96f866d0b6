extension Signal {
  /// Transforms each value with `transform`.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// prices.map { $0 * 1.2 }.subscribeNext { print("with tax:", $0) }
  /// ```
  ///
  /// - Parameter transform: Applied to each value, one at a time.
  /// - Returns: A signal of the transformed values.
  /// - Note: ReactiveCocoa 2.5 `-map:`. RAC builds it on `flattenMap:` and `+return:`, subscribing to one
  ///   signal per value; the behaviour is the same, the cost is not.
  @inlinable
  public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Signal<NewValue, Failure> {
    AnonymousSignal { observer in
      self.attach(.forwardingTerminal(to: observer) { value in observer.sendNext(transform(value)) })
    }
  }
}
