extension Signal {
  /// Lazily binds a step to each value: the step returns a signal to splice into the result, and may stop
  /// the binding.
  ///
  /// `makeStep` runs once per subscription, so the step it returns may keep state of its own; the step is
  /// called one value at a time. For each value it returns the signal to merge into the result, or `nil` to
  /// end the binding at once; setting its `stop` argument to `true` ends the binding after that signal.
  /// Values of the spliced signals are merged as they arrive. The result completes when the source (or the
  /// binding) has ended and every spliced signal has completed, and fails with the first failure.
  /// Disposing it disposes the source and every spliced signal.
  ///
  /// ```swift
  /// let doubled = numbers.bind {
  ///   { value, stop in .return(value * 2) }
  /// }
  /// let firstThree = numbers.bind {
  ///   var count = 0
  ///   return { value, stop in
  ///     count += 1
  ///     stop = count == 3
  ///     return .return(value)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter makeStep: Creates the step of one subscription.
  /// - Returns: The merged signal.
  /// - Note: ReactiveCocoa 2.5 `-bind:` (RACStreamBindBlock with its `BOOL *stop`).
  @inlinable
  public func bind<NewValue>(
    _ makeStep: @escaping @Sendable () -> sending (Value, inout Bool) -> Signal<NewValue, Failure>?
  ) -> Signal<NewValue, Failure> {
    AnonymousSignal { observer in
      BindStorage.attach(source: self, step: makeStep(), observer: observer)
    }
  }

  /// Maps each value to a signal and merges the values of those signals.
  ///
  /// The result completes when the source and every mapped signal have completed, and fails with the first
  /// failure; disposing it disposes them all.
  ///
  /// ```swift
  /// let results = queries.flattenMap { query in search(query) }
  /// ```
  ///
  /// - Parameter transform: Maps a value to the signal whose values are merged in.
  /// - Returns: The merged signal.
  /// - Note: ReactiveCocoa 2.5 `-flattenMap:` (built on `-bind:`, as in RAC). RAC treats a `nil` signal as
  ///   empty; return `.empty` instead.
  @inlinable
  public func flattenMap<NewValue>(
    _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
  ) -> Signal<NewValue, Failure> {
    bind { { value, _ in transform(value) } }
  }
}
