/// How a ``SignalSequence`` iterator buffers the values that arrive while its consumer is busy.
///
/// A signal pushes; a `for await` loop pulls. Values sent while the loop body runs wait in the iterator's
/// own buffer. The buffer is unbounded unless you bound it; a bounded buffer drops values when it is full,
/// and never silently: every drop is counted in ``SignalSequence/droppedCount`` and
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
  /// for await line in log.values(bufferingPolicy: .bufferingOldest(100)) { await write(line) }
  /// ```
  case bufferingOldest(Int)
}
