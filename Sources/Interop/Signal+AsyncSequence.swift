import AsyncSignals

extension Signal {
  /// The signal's values as an `AsyncSequence`, buffered without bound: read them with `for await` (or
  /// `for try await`, which throws the signal's typed failure).
  ///
  /// Each loop is its own subscription, made when the loop starts: a cold signal runs its work once per
  /// loop, and a hot one (a `Subject`) can be read by many loops at once, each with its own buffer. The loop
  /// ends when the signal completes and throws when it fails, after the values sent before. Leaving the loop
  /// early, dropping the iterator or cancelling the task disposes the subscription; a cancelled loop ends
  /// like a completed one. See ``SignalSequence``.
  ///
  /// Leaving early disposes only where Swift destroys the iterator: in a function, a closure or a `Task`. A
  /// loop in top-level code (`main.swift`, a script) keeps its iterator, and so its subscription, after a
  /// `break`; put such a loop in a function or an `@main` type.
  ///
  /// ```swift
  /// let searches = Subject<String, Never>()
  /// Task {
  ///   for await query in searches.values {
  ///     await runSearch(query)  // queries sent meanwhile wait in this loop's buffer
  ///   }
  ///   print("search closed")
  /// }
  /// ```
  ///
  /// Hot sources need no API of their own. A multicast connection's `signal` (RAC's `RACMulticastConnection`)
  /// is a subject: loops over `connection.signal.values` each have their own subscription and buffer, and
  /// share the one subscription that `connect()` makes to the source. With `share()`, the first loop to start
  /// connects and the last loop to end — by completion, `break`, or cancellation — disconnects, and the next loop
  /// connects again; with RAC's `publish().autoconnect()`, the disconnection is for good. `replay()` and
  /// `replayLast()` give late loops what they missed:
  ///
  /// ```swift
  /// let fixes = location.share()
  /// Task { for await fix in fixes.values { await render(fix) } }  // the first loop connects
  /// Task { for await fix in fixes.values { print(fix) } }         // the second shares it
  ///
  /// let settings = loadSettings().replayLast()  // subscribed once, now
  /// for await current in settings.values { show(current) }  // the latest settings first, then each change
  /// ```
  ///
  /// The subscription is made in the isolation of the loop (`for await` passes it to
  /// ``SignalSequence/Iterator/next(isolation:)``): on the main actor a signal's subscribe body runs at once,
  /// elsewhere on the background subscription scheduler, as for any subscription (guarantee 5). An actor
  /// reads a signal inside its own isolation, without a hop per value:
  ///
  /// ```swift
  /// actor Tally {
  ///   var total = 0
  ///   func add(_ numbers: Signal<Int, Never>) async {
  ///     for await number in numbers.values { total += number }  // actor state, no `await` needed
  ///   }
  /// }
  /// ```
  ///
  /// An actor whose executor is a `QueueScheduler` can instead take each value synchronously on its own queue,
  /// without a task: `deliver(on:)` that scheduler, then `assumeIsolated`, which the runtime confirms there:
  ///
  /// ```swift
  /// actor Store {
  ///   nonisolated let scheduler = QueueScheduler(name: "store")
  ///   nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
  ///   var items: [Item] = []
  ///
  ///   nonisolated func follow(_ updates: Signal<Item, Never>) -> any Disposable {
  ///     updates.deliver(on: scheduler).subscribeNext { item in
  ///       self.assumeIsolated { $0.items.append(item) }  // on the store's queue: its own isolation
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Note: Replaces subscribing with closures and keeping the disposable. ReactiveCocoa 2.5 had no pull
  ///   side; RAC's blocking `-toArray` / `-first` are ``first(isolation:)`` and ``toArray(isolation:)`` here.
  public var values: SignalSequence<Value, Failure> {
    SignalSequence(signal: self, bufferingPolicy: .unbounded, onDrop: nil)
  }

  /// The signal's values as an `AsyncSequence` whose iterators buffer at most as `bufferingPolicy` allows,
  /// reporting every value they drop.
  ///
  /// Behaves as ``values``, except that a full buffer drops a value: the oldest buffered one
  /// (`bufferingNewest`) or the arriving one (`bufferingOldest`). Drops are never silent: they are counted in
  /// the sequence's ``SignalSequence/droppedCount`` (all its iterators) and each iterator's
  /// ``SignalSequence/Iterator/droppedCount``, and `onDrop` receives each dropped value — on the thread that
  /// sent the value that caused the drop, one call at a time per iterator, so it must not block.
  ///
  /// ```swift
  /// let prices = ticker.values(bufferingPolicy: .bufferingNewest(1)) { stale in
  ///   print("skipped price \(stale)")
  /// }
  /// for await price in prices { await redraw(price) }  // always the latest price
  /// ```
  ///
  /// - Parameters:
  ///   - bufferingPolicy: How many values each iterator keeps while its consumer is busy. A limit must not
  ///     be negative; a limit of `0` keeps nothing, delivering only to a consumer already waiting.
  ///   - onDrop: Called with each dropped value; `nil` to only count drops.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A sequence whose iterators each subscribe at their first `next()`.
  /// - Note: As `AsyncStream`'s buffering policies, but a drop is counted and reported instead of only being
  ///   returned to the sender. ReactiveCocoa 2.5 has no equivalent.
  public func values(
    bufferingPolicy: SignalBufferingPolicy, onDrop: (@Sendable (Value) -> Void)? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) -> SignalSequence<Value, Failure> {
    switch bufferingPolicy {
    case .unbounded:
      break
    case .bufferingNewest(let limit):
      precondition(limit >= 0, "values(bufferingPolicy:onDrop:): bufferingNewest's limit must not be negative",
        file: file, line: line)
    case .bufferingOldest(let limit):
      precondition(limit >= 0, "values(bufferingPolicy:onDrop:): bufferingOldest's limit must not be negative",
        file: file, line: line)
    case .bounded(let limit):
      precondition(limit > 0, "values(bufferingPolicy:onDrop:): bounded's limit must be positive", file: file, line: line)
    }
    return SignalSequence(signal: self, bufferingPolicy: bufferingPolicy, onDrop: onDrop)
  }
}
