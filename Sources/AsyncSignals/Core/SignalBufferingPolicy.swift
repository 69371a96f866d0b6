/// How the values that arrive while their consumer is busy wait for it: in a `SignalSequence` iterator's buffer, or
/// in the queue of a subscription that delivers into an actor.
///
/// A signal pushes; a `for await` loop pulls. Values sent while the loop body runs wait in the iterator's own
/// buffer (`values(bufferingPolicy:)`, AsyncSignalsInterop). The buffer is unbounded unless you bound it.
/// ``bounded(_:)`` loses nothing: when it is full, sources that can pause do, and nothing ever waits (flow control).
/// The two `buffering` policies drop values when full, and never silently: every drop is counted in
/// `SignalSequence.droppedCount` and `SignalSequence.Iterator.droppedCount`, and passed to the `onDrop` closure of
/// `values(bufferingPolicy:onDrop:)` if you gave one. A consumer that is already waiting takes the value directly,
/// so nothing is dropped while the loop keeps up, even with a limit of zero.
///
/// The same policies bound the values waiting for an actor:
/// ``Signal/subscribeNext(isolatedTo:bufferingPolicy:_:error:completed:isolation:)``,
/// ``Signal/bind(isolatedTo:bufferingPolicy:_:isolation:)``, ``Signal/bind(onMainActorTo:keyPath:bufferingPolicy:)``
/// and, in AsyncSignalsInterop, `subscribeNext(onMainActor:bufferingPolicy:)`. There every value waits for a job
/// on the actor, so the limit must be positive; the counts are the returned ``IsolatedSubscription``'s, and a
/// dropping policy has no `onDrop` closure. The Flow Control article of AsyncSignalsInterop has the details.
///
/// ```swift
/// // A slow consumer that only cares about the latest position:
/// let positions = location.values(bufferingPolicy: .bufferingNewest(1))
/// for await position in positions { await render(position) }
/// print("skipped", positions.droppedCount, "stale positions")
/// ```
///
/// - Note: Shaped like `AsyncStream.Continuation.BufferingPolicy`, with drops reported rather than only
///   returned to the sender. ReactiveCocoa 2.5 has no pull side and so no equivalent.
public enum SignalBufferingPolicy: Sendable, Hashable {
  /// Keeps every value until it is consumed. The default.
  ///
  /// ```swift
  /// for await message in messages.values(bufferingPolicy: .unbounded) { await handle(message) }
  /// ```
  case unbounded
  /// Keeps at most `limit` values: when full, drops the oldest buffered value to make room for the new one.
  ///
  /// ```swift
  /// for await position in location.values(bufferingPolicy: .bufferingNewest(1)) { await render(position) }
  /// ```
  case bufferingNewest(Int)
  /// Keeps at most `limit` values: when full, drops the value that just arrived.
  ///
  /// ```swift
  /// for await line in logLines.values(bufferingPolicy: .bufferingOldest(100)) { await archive(line) }
  /// ```
  case bufferingOldest(Int)
  /// Keeps at most `limit` values waiting for a source that can pause, loses none, and never blocks a thread.
  ///
  /// When `limit` values wait, a source the library drives (`Signal.from`, `MemoizedSequence.signal(on:)`)
  /// pauses before its next value, and an async producer (an `AsyncSequence`'s `signal`, a `Signal.async` body
  /// calling `await subscriber.send(_:)`) suspends, until the consumer has taken the buffer down to half; the
  /// pause reaches the source through the operators that send at most one value per value on the sending thread
  /// (`map`, `filter`, `take`, …). Any other sender — a subject's `sendNext` from any thread, queue or task, a
  /// `create` body, an operator that does not carry the pause — is never made to wait: what it sends beyond
  /// `limit` is buffered and counted in `SignalSequence.overflowCount` and `SignalSequence.Iterator.overflowCount`
  /// (``IsolatedSubscription/overflowCount`` for delivery into an actor). Leaving the loop, or disposing the
  /// subscription, releases every paused source and suspended producer at once. `limit` must be positive. The Flow
  /// Control article has the details.
  ///
  /// ```swift
  /// // `logFileLines` is a lazy `Sequence` of a file's lines: it is read no faster than the loop takes them.
  /// let lines = Signal<String, Never>.from(logFileLines).map { $0.uppercased() }
  /// for await line in lines.values(bufferingPolicy: .bounded(64)) { print(line) }  // at most 64 wait
  /// ```
  case bounded(Int)
}
