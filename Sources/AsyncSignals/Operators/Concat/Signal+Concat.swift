extension Signal {
  /// This signal's values, then — once it completes — the values of `next`.
  ///
  /// `next` is subscribed when this signal completes, on the thread that completed it and before that
  /// completion returns, as in RAC; a failure of either ends the result. Disposing the result disposes
  /// whichever subscription is live.
  ///
  /// ```swift
  /// let greeting = Signal<String, Never>.return("hello").concat(.return("world"))  // hello, world
  /// ```
  ///
  /// Each concatenation nests one subscription inside the previous one's completion; to concatenate many
  /// signals, use `Signal.concat(_:)` on a collection, which runs in constant stack depth. That form also carries the
  /// pause of a `values(bufferingPolicy: .bounded(n))` loop to each signal in turn; this one ends it.
  ///
  /// - Parameter next: The signal that follows.
  /// - Returns: The concatenation.
  /// - Note: ReactiveCocoa 2.5 `-concat:`.
  @inlinable
  public func concat(_ next: Signal<Value, Failure>) -> Signal<Value, Failure> {
    ConcatSignal(self, next)
  }
}
