extension Signal {
  /// The values of the inner signals this signal sends, one inner signal after the other.
  ///
  /// Each inner signal is subscribed to when the previous one has completed; those that arrive meanwhile wait,
  /// in order. The result completes when this signal and every inner signal have completed, fails with the
  /// first failure, and disposes whatever is live — and drops the waiting signals — when it ends or is
  /// disposed. It runs in constant stack depth however many inner signals complete synchronously. Read through
  /// `values(bufferingPolicy: .bounded(n))`, it carries the loop's pause as ``flatten(maxConcurrent:file:line:)``
  /// does: this signal, if it can pause, sends the next inner signal once the previous one has completed.
  ///
  /// ```swift
  /// let downloads = urls.map { url in download(url) }.concat()  // one download at a time
  /// ```
  ///
  /// - Returns: The concatenation of the inner signals.
  /// - Note: ReactiveCocoa 2.5 `-concat` on a signal of signals (`-flatten:1`, as here).
  @inlinable
  public func concat<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
    flatten(maxConcurrent: 1)
  }

  /// The values of `signals`, one signal after the other.
  ///
  /// Each signal is subscribed to when the previous one has completed; the collection is copied when this
  /// method is called. The result completes after the last one (at once for an empty collection), fails with
  /// the first failure, and disposes the live subscription when it ends or is disposed. It runs in constant
  /// stack depth: concatenating 100 000 synchronous signals is fine. Read through
  /// `values(bufferingPolicy: .bounded(n))`, each signal that can pause pauses while the loop is full.
  ///
  /// ```swift
  /// let pages = Signal.concat((1...10).map { page in fetch(page: page) })
  /// ```
  ///
  /// - Parameter signals: The signals to concatenate.
  /// - Returns: The concatenation.
  /// - Note: ReactiveCocoa 2.5 `+concat:` (RACStream). RAC folds the collection with `-concat:`, nesting one
  ///   subscription per signal; here one operator subscribes to them in a loop.
  @inlinable
  public static func concat(_ signals: some Sequence<Signal<Value, Failure>>) -> Signal<Value, Failure> {
    // Erased once, here, where the type is concrete: the engine is not generic (see `ConcatStateMachine`).
    let signals: [ErasedSignal] = signals.map { $0 }
    return AnonymousSignal { observer in
      guard let demand = observer.demand else {
        return ConcatStorage.attach(pending: [], signals: signals, trampolined: true, observer: observer)
      }
      // A bounded consumer: `MergeStorage`'s paced path carries its pause to each signal in turn.
      return MergeStorage.attachPaced(
        signals.map { unsafeDowncast($0, to: Signal<Value, Failure>.self) }, limit: 1, observer: observer,
        demand: demand)
    }
  }

  /// Ignores this signal's values and, once it completes, continues with the signal `next` makes.
  ///
  /// `next` is called when this signal completes — lazily, once per subscription — and its signal is
  /// subscribed to under the same scheduling rule as ``defer(_:)``. A failure of this signal ends the result
  /// without calling `next`. Disposing the result disposes whichever subscription is live.
  ///
  /// ```swift
  /// let user = migration.then { fetchUser() }  // fetches the user once the migration has completed
  /// ```
  ///
  /// - Parameter next: Makes the signal that follows.
  /// - Returns: The values of the signal `next` makes.
  /// - Note: ReactiveCocoa 2.5 `-then:` (RAC's is `ignoreValues`, then `-concat:` of `+defer:`, as here).
  @inlinable
  public func then<NewValue: Sendable>(
    _ next: @escaping @Sendable () -> Signal<NewValue, Failure>
  ) -> Signal<NewValue, Failure> {
    let source = self
    let valuesIgnored = AnonymousSignal<NewValue, Failure> { observer in
      source.attach { event in
        switch event {
        case .next: return .proceed
        case .error(let error): return observer(.error(error))
        case .completed: return observer(.completed)
        }
      }
    }
    return valuesIgnored.concat(.defer(next))
  }
}
