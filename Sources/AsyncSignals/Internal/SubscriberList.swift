/// The sinks of a hot signal (a subject), in subscription order. Not generic: a subject delivers through it
/// without generic metadata.
///
/// Removal leaves a hole that is compacted away once holes outnumber members, so attaching and detaching
/// 100 000 subscribers takes linear time and delivery order stays the subscription order. Each sink records
/// its index (`SinkState.ownerIndex`); the list is always kept inside its owner's lock.
@usableFromInline
struct SubscriberList: Sendable {
  @usableFromInline private(set) var slots: ContiguousArray<SinkCore?> = []
  private var holes = 0

  @usableFromInline
  init() {}

  @usableFromInline
  var count: Int { slots.count - holes }

  @usableFromInline
  mutating func append(_ sink: SinkCore) {
    sink.state.pointee.ownerIndex = slots.count
    slots.append(sink)
  }

  @usableFromInline
  mutating func remove(_ sink: SinkCore) {
    let index = sink.state.pointee.ownerIndex
    guard index >= 0, index < slots.count, slots[index] === sink else { return }
    slots[index] = nil
    sink.state.pointee.ownerIndex = -1
    holes += 1
    if holes > 16 && holes * 2 > slots.count { compact() }
  }

  /// Removes every sink and returns them, for a terminal event.
  @usableFromInline
  mutating func removeAll() -> ContiguousArray<SinkCore?> {
    defer {
      slots = []
      holes = 0
    }
    for case let sink? in slots { sink.state.pointee.ownerIndex = -1 }
    return slots
  }

  private mutating func compact() {
    var compacted = ContiguousArray<SinkCore?>()
    compacted.reserveCapacity(count)
    for case let sink? in slots {
      sink.state.pointee.ownerIndex = compacted.count
      compacted.append(sink)
    }
    slots = compacted
    holes = 0
  }
}
