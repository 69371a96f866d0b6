/// The values of one buffer, and when it is full: the part that `buffer(count:)`, `buffer(time:on:)` and
/// `buffer(time:count:on:)` share. Pure: no locks, no callouts.
///
/// `buffer(count:)` keeps one in an `ObserverState` box, with no lock (its observer is called one event at a
/// time); the time-based forms keep one in `BufferStateMachine`, under their lock, with no limit for
/// `buffer(time:on:)`. A buffer handed out is emptied first, so that a value the downstream sends back into the
/// source while it handles the buffer joins the next one (guarantee 6).
@usableFromInline
struct BufferAccumulator<Value: Sendable>: Sendable {
  @usableFromInline
  var values: [Value] = []
  /// How many values fill a buffer; `Int.max` for no limit.
  @usableFromInline
  let limit: Int

  @inlinable
  init(limit: Int) {
    self.limit = limit
  }

  @inlinable
  var isEmpty: Bool { values.isEmpty }

  @inlinable
  var count: Int { values.count }

  /// Adds `value`. Returns the buffer, emptied here, when `value` fills it; otherwise `nil`.
  @inlinable
  mutating func append(_ value: Value) -> [Value]? {
    values.append(value)
    guard values.count == limit else { return nil }
    return takeAll()
  }

  /// Returns what is buffered, emptied here, or `nil` if nothing is: an empty array is never sent.
  @inlinable
  mutating func flush() -> [Value]? {
    values.isEmpty ? nil : takeAll()
  }

  /// Drops what is buffered (a failure, or disposal).
  @inlinable
  mutating func removeAll() {
    values = []
  }

  @inlinable
  mutating func takeAll() -> [Value] {
    let all = values
    values = []
    return all
  }
}
