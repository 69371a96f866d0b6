extension Signal {
  /// The values of this signal and of `other`, interleaved as they arrive.
  ///
  /// Both are subscribed to at once, this one first. The result completes when both have completed, fails
  /// with the first failure, and disposes both subscriptions when it ends or is disposed. Read through
  /// `values(bufferingPolicy: .bounded(n))`, each of the two that can pause (``from(_:)``, say) pauses while the loop
  /// is full.
  ///
  /// ```swift
  /// let traffic = requests.merge(responses)  // both, in the order they arrive
  /// ```
  ///
  /// - Parameter other: The signal merged with this one.
  /// - Returns: The merged signal.
  /// - Note: ReactiveCocoa 2.5 `-merge:` (`+merge:` of the two signals, as in RAC).
  @inlinable
  public func merge(_ other: Signal<Value, Failure>) -> Signal<Value, Failure> {
    Signal.merge([self, other])
  }

  /// The values of all of `signals`, interleaved as they arrive.
  ///
  /// Every signal is subscribed to at once, in collection order; the collection is copied when this method is
  /// called. The result completes when all of them have completed (at once for an empty collection), fails
  /// with the first failure, and disposes every subscription when it ends or is disposed. Read through
  /// `values(bufferingPolicy: .bounded(n))`, each signal that can pause (``from(_:)``, say) pauses while the loop is
  /// full.
  ///
  /// ```swift
  /// let anyEdit = Signal.merge([name, email, phone])  // each edit of any of the three fields
  /// ```
  ///
  /// - Parameter signals: The signals to merge.
  /// - Returns: The merged signal.
  /// - Note: ReactiveCocoa 2.5 `+merge:`, which also copies the collection eagerly.
  @inlinable
  public static func merge(_ signals: some Sequence<Signal<Value, Failure>>) -> Signal<Value, Failure> {
    let signals = Array(signals)
    return AnonymousSignal { observer in
      MergeStorage.attach(signals, limit: .max, observer: observer)
    }
  }

  /// Merges the inner signals this signal sends: the values of every inner signal, interleaved as they arrive.
  ///
  /// Each inner signal is subscribed to as soon as it arrives. The result completes when this signal and
  /// every inner signal have completed, fails with the first failure of any of them, and disposes every
  /// subscription when it ends or is disposed. With no limit, it does not carry the pause of a
  /// `values(bufferingPolicy: .bounded(n))` loop: pausing this signal would bound nothing the operator holds;
  /// ``flatten(maxConcurrent:file:line:)`` with a limit does.
  ///
  /// ```swift
  /// let results = queries.map { query in search(query) }.flatten()  // the same as flattenMap
  /// ```
  ///
  /// - Returns: The merged signal.
  /// - Note: ReactiveCocoa 2.5 `-flatten` (RACStream), an unbounded merge for signals. RAC builds it on
  ///   `-flattenMap:`; this is ``flatten(maxConcurrent:file:line:)`` with no limit. RAC skips `nil` inner signals;
  ///   Swift has none.
  @inlinable
  public func flatten<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
    let outer = self
    return AnonymousSignal { observer in
      MergeStorage.attach(outer: outer, limit: .max, observer: observer)
    }
  }

  /// Merges the inner signals this signal sends, with at most `maxConcurrent` of them subscribed at once.
  ///
  /// An inner signal that arrives while `maxConcurrent` are active waits, in arrival order, until one of them
  /// completes. `maxConcurrent == 1` subscribes to them one after the other (``concat()``); `0` means no
  /// limit, as in RAC (``flatten()``). The result completes when this signal and every inner signal have
  /// completed, fails with the first failure, and disposes every subscription — and drops the waiting
  /// signals — when it ends or is disposed. However many inner signals complete synchronously as they are
  /// subscribed to, the next one is subscribed from a loop, not from inside the previous subscription, so
  /// the stack stays flat.
  ///
  /// Read through `values(bufferingPolicy: .bounded(n))`, a limited flatten carries the loop's pause: while
  /// `maxConcurrent` inner signals are in hand, this signal, if it can pause (``from(_:)`` of signals, an
  /// `AsyncSequence`'s `signal`), stops sending them instead of queueing them, and each inner signal that can pause
  /// pauses while the loop is full. One that cannot pause (a subject) still has its inner signals queued.
  ///
  /// ```swift
  /// let downloads = urls.map { url in download(url) }.flatten(maxConcurrent: 4)
  /// ```
  ///
  /// - Parameters:
  ///   - maxConcurrent: The most inner signals subscribed at once; `0` for no limit. Must not be
  ///     negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: The merged signal.
  /// - Note: ReactiveCocoa 2.5 `-flatten:`. RAC subscribes to the next waiting signal from inside the
  ///   completion of the previous one, so its stack grows with each inner signal that completes synchronously.
  @inlinable
  public func flatten<Inner: Sendable>(
    maxConcurrent: Int, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Inner, Failure>
  where Value == Signal<Inner, Failure> {
    precondition(
      maxConcurrent >= 0, "flatten(maxConcurrent:): maxConcurrent must not be negative", file: file, line: line)
    let outer = self
    let limit = maxConcurrent == 0 ? Int.max : maxConcurrent
    return AnonymousSignal { observer in
      MergeStorage.attach(outer: outer, limit: limit, observer: observer)
    }
  }

  /// Maps each value to a signal and merges the values of those signals, with at most `maxConcurrent` of them
  /// subscribed at once.
  ///
  /// `transform` runs for each value as it arrives; the signal it returns is subscribed to at once if fewer than
  /// `maxConcurrent` are active, and otherwise waits, in arrival order, until one of them completes. The values of
  /// the active signals are merged as they arrive. The result completes when this signal and every mapped signal
  /// have completed, fails with the first failure, and disposes every subscription — and drops the waiting
  /// signals — when it ends or is disposed. It is `map(transform).flatten(maxConcurrent: maxConcurrent)`.
  ///
  /// Read through `values(bufferingPolicy: .bounded(n))`, it carries the loop's pause: while `maxConcurrent` mapped
  /// signals are active, a source that can pause (``from(_:)``, an `AsyncSequence`'s `signal`) stops sending values
  /// instead of queueing signals, and each mapped signal that can pause pauses while the loop is full.
  ///
  /// ```swift
  /// let downloads = urls.flattenMap(maxConcurrent: 4) { url in download(url) }  // four at a time
  /// ```
  ///
  /// - Parameters:
  ///   - maxConcurrent: The most mapped signals subscribed at once. Must be positive: ``flattenMap(_:)`` is the
  ///     unbounded form.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  ///   - transform: Maps a value to the signal whose values are merged in.
  /// - Returns: The merged signal.
  /// - Note: No ReactiveCocoa 2.5 counterpart: RAC's `-flattenMap:` is unbounded; in RAC this is `-map:` followed
  ///   by `-flatten:`. Combine's `flatMap(maxPublishers: .max(n))`, ReactiveSwift's `flatMap(.concurrent(limit:))`,
  ///   RxSwift's `map` followed by `merge(maxConcurrent:)`.
  @inlinable
  public func flattenMap<NewValue: Sendable>(
    maxConcurrent: Int, file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
  ) -> Signal<NewValue, Failure> {
    precondition(
      maxConcurrent > 0, "flattenMap(maxConcurrent:_:): maxConcurrent must be positive", file: file, line: line)
    return map(transform).flatten(maxConcurrent: maxConcurrent, file: file, line: line)
  }
}
