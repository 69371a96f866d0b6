extension Signal {
  /// Keeps the values for which `isIncluded` returns `true`.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// numbers.filter { $0.isMultiple(of: 2) }.subscribeNext { print($0) }  // the even ones
  /// ```
  ///
  /// - Parameter isIncluded: Decides, one value at a time, whether a value passes.
  /// - Returns: A signal of the values that pass.
  /// - Note: ReactiveCocoa 2.5 `-filter:`. RAC builds it on `flattenMap:`; the behaviour is the same.
  @inlinable
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      self.attach(
        Observer(raw: { kind, payload in
          if kind == .next, !isIncluded(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee) {
            return .proceed
          }
          return observer.raw(kind, payload)
        }))
    }
  }
}
