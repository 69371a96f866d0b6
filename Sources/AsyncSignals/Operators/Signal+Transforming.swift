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
      // One raw closure that calls `transform` itself: the shape of `filter`. Going through
      // `forwardingTerminal` cost a second closure per event and a second context per subscription.
      self.attach(
        Observer(raw: { kind, payload in
          guard kind == .next else { return observer.raw(kind, payload) }
          return observer.sendNext(transform(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee))
        }))
    }
  }
}
