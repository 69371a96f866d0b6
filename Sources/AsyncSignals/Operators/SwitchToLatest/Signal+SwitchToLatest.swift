extension Signal {
  /// Follows the latest inner signal this signal sends: its values only, until the next one arrives.
  ///
  /// When a new inner signal arrives, the previous one is disposed first, then the new one is subscribed to.
  /// The result completes when this signal and the latest inner signal have completed; it fails with the
  /// failure of this signal or of the inner signal being followed. Ending or disposing it disposes both.
  ///
  /// ```swift
  /// let results = searchText.map { text in search(text) }.switchToLatest()  // stale searches are dropped
  /// ```
  ///
  /// - Returns: The values of the latest inner signal.
  /// - Note: ReactiveCocoa 2.5 `-switchToLatest`. RAC subscribes to the new inner signal before the previous
  ///   one sees the switch (its `takeUntil:` fires second); here the previous one is disposed first, so a
  ///   stale inner signal can never send after the new one has started. RAC treats a `nil` inner signal as
  ///   empty; Swift has none (send `.empty`).
  @inlinable
  public func switchToLatest<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
    let outer = self
    return AnonymousSignal { observer in
      SwitchToLatestStorage.attach(outer: outer, observer: observer)
    }
  }
}
