/// How a ``SignalSequence`` iterator buffers the values that arrive while its consumer is busy.
///
/// A signal pushes; a `for await` loop pulls. Values sent while the loop body runs wait in the iterator's
/// own buffer. The buffer is unbounded unless you bound it. ``bounded(_:)`` loses nothing: when it is full, the
/// producer waits where waiting is safe. The two `buffering` policies drop values when full, and never silently: every drop is counted in ``SignalSequence/droppedCount`` and
/// ``SignalSequence/Iterator/droppedCount``, and passed to the `onDrop` closure of
/// `values(bufferingPolicy:onDrop:)` if you gave one. A consumer that is already waiting
/// takes the value directly, so nothing is dropped while the loop keeps up, even with a limit of zero.
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
  /// Keeps at most `limit` values and loses none: when the buffer is full, the producer waits until the consumer
  /// takes a value, where waiting is safe.
  ///
  /// Who waits: a producer on a plain thread or a Dispatch queue blocks inside `sendNext` (and so does every
  /// sender queued behind it on the same signal) until there is room or the loop ends. Two producers never wait,
  /// because waiting could stop the consumer from ever making room:
  /// - a producer running in a task, which would hold a thread of Swift's small cooperative pool, perhaps the one
  ///   the consumer needs;
  /// - a producer on the consumer's own executor (the main queue for a loop on the main actor, or the
  ///   `QueueScheduler` that is the consuming actor's executor).
  ///
  /// For those the buffer grows past `limit`; every value buffered beyond it is counted in
  /// ``SignalSequence/overflowCount`` and ``SignalSequence/Iterator/overflowCount``. `limit` must be positive.
  ///
  /// ```swift
  /// // A parser on its own queue may run ahead of the writer by at most 64 records:
  /// for await record in parser.records.values(bufferingPolicy: .bounded(64)) { await database.insert(record) }
  /// ```
  case bounded(Int)
}
