extension Signal {
  /// Sends this signal's latest value each time `sampler` sends a value.
  ///
  /// Nothing is sent until this signal has sent a value; after that, every value of `sampler` sends the latest
  /// value of this signal, which may repeat. A terminal event of either signal — completion or failure — ends
  /// the result, and ending or disposing it disposes both. This signal is subscribed to first.
  ///
  /// ```swift
  /// let positionEachTick = location.sample(ticks)  // the latest position, once per tick
  /// ```
  ///
  /// - Parameter sampler: The signal whose values trigger a sample; its values themselves are ignored.
  /// - Returns: A signal of sampled values.
  /// - Note: ReactiveCocoa 2.5 `-sample:`. RAC stores the value under a lock and sends without it, as here.
  @inlinable
  public func sample<Trigger: Sendable>(_ sampler: Signal<Trigger, Failure>) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      SampleStorage.attach(self, sampler: sampler, observer: observer)
    }
  }
}
