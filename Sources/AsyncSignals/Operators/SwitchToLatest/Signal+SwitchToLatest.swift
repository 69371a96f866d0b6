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

  /// Maps each value to a signal and follows only the latest one: ``switchToLatest()`` after ``map(_:)``.
  ///
  /// Each value of this signal is mapped with `transform`; the signal that results replaces the one followed so
  /// far, which is disposed first, then the new one is subscribed to. Only the values of the latest mapped signal
  /// are sent, until the next value of this signal arrives. The result completes when this signal and the latest
  /// mapped signal have completed; it fails with the failure of this signal or of the mapped signal being
  /// followed. Ending or disposing it disposes both.
  ///
  /// ```swift
  /// let suggestions = searchText.flattenMapLatest { text in search(text) }  // each keystroke drops the last search
  /// ```
  ///
  /// - Parameter transform: Maps a value to the signal to follow until the next value.
  /// - Returns: The values of the signal mapped from the latest value.
  /// - Note: No ReactiveCocoa 2.5 selector of its own: RAC writes `[[signal map:…] switchToLatest]`, as this
  ///   method does, with ``switchToLatest()``'s difference (the previous signal is disposed before the new one is
  ///   subscribed to). ReactiveSwift's `flatMap(.latest)`, RxSwift's `flatMapLatest`, Combine's
  ///   `map(_:)` then `switchToLatest()`.
  @inlinable
  public func flattenMapLatest<NewValue>(
    _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
  ) -> Signal<NewValue, Failure> {
    map(transform).switchToLatest()
  }
}
