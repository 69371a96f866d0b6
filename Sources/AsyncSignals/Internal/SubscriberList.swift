/// The sinks of a hot signal (a subject), in subscription order.
///
/// Removal leaves a hole that is compacted away once holes outnumber members, so attaching and detaching
/// 100 000 subscribers takes linear time and delivery order stays the subscription order. Each sink records
/// its index (`SinkCore.ownerIndex`); the list is always kept inside its owner's lock.
struct SubscriberList<Value: Sendable, Failure: Error>: Sendable {
  var slots: ContiguousArray<Sink<Value, Failure>?> = []
  var holes = 0

  init() {}

  var count: Int { slots.count - holes }

  mutating func append(_ sink: Sink<Value, Failure>) {
    sink.core.pointee.ownerIndex = slots.count
    slots.append(sink)
  }

  mutating func remove(_ sink: Sink<Value, Failure>) {
    let index = sink.core.pointee.ownerIndex
    guard index >= 0, index < slots.count, slots[index] === sink else { return }
    slots[index] = nil
    sink.core.pointee.ownerIndex = -1
    holes += 1
    if holes > 16 && holes * 2 > slots.count { compact() }
  }

  /// Removes every sink and returns them, for a terminal event.
  mutating func removeAll() -> ContiguousArray<Sink<Value, Failure>?> {
    defer {
      slots = []
      holes = 0
    }
    for case let sink? in slots { sink.core.pointee.ownerIndex = -1 }
    return slots
  }

  mutating func compact() {
    var compacted = ContiguousArray<Sink<Value, Failure>?>()
    compacted.reserveCapacity(count)
    for case let sink? in slots {
      sink.core.pointee.ownerIndex = compacted.count
      compacted.append(sink)
    }
    slots = compacted
    holes = 0
  }
}
