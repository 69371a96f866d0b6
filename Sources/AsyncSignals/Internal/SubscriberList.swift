import Synchronization

/// The sinks of a hot signal (a subject), in subscription order. Not generic: a subject delivers through it
/// without generic metadata.
///
/// Removal leaves a hole that is compacted away once holes outnumber members, so attaching and detaching
/// 100 000 subscribers takes linear time and delivery order stays the subscription order. Each sink records
/// its index (`SinkState.ownerIndex`); the list is always kept inside its owner's lock.
///
/// The list also journals its changes for the subject's `SinkMirror`, the copy that delivery reads without this
/// lock: each change as an index and what is now there, or the whole list when it is short, once the journal would
/// grow as long as the list, or after a compaction. So the journal never outgrows the list.
@usableFromInline
struct SubscriberList: Sendable {
  @usableFromInline private(set) var slots: ContiguousArray<SinkCore?> = []
  /// Raised with every change, under the owner's lock, so that a sender that has seen a change (a subscriber counted)
  /// finds it raised and catches up (issue 26).
  private let changed: ListChangedFlag
  private var holes = 0
  /// The changes since the mirror last caught up, unless `rebuilt`.
  private var journal = ContiguousArray<Change>()
  /// Whether the mirror must copy the whole list: the journal was dropped.
  private var rebuilt = false

  /// One change: the slot at `index` (one past the end: appended) now holds `sink`.
  @usableFromInline
  struct Change: Sendable {
    let index: Int
    let sink: SinkCore?
  }

  @usableFromInline
  init(changed: ListChangedFlag) {
    self.changed = changed
  }

  @usableFromInline
  var count: Int { slots.count - holes }

  @usableFromInline
  mutating func append(_ sink: SinkCore) {
    sink.state.pointee.ownerIndex = slots.count
    record(Change(index: slots.count, sink: sink))
    slots.append(sink)
  }

  /// Removes `sink`; `false` if it was not in the list.
  @usableFromInline
  @discardableResult
  mutating func remove(_ sink: SinkCore) -> Bool {
    let index = sink.state.pointee.ownerIndex
    guard index >= 0, index < slots.count, slots[index] === sink else { return false }
    slots[index] = nil
    sink.state.pointee.ownerIndex = -1
    record(Change(index: index, sink: nil))
    holes += 1
    if holes > 16 && holes * 2 > slots.count { compact() }
    return true
  }

  /// Removes every sink and returns them, for a terminal event.
  @usableFromInline
  mutating func removeAll() -> ContiguousArray<SinkCore?> {
    defer {
      slots = []
      holes = 0
      dropJournal()
      changed.raise()
    }
    for case let sink? in slots { sink.state.pointee.ownerIndex = -1 }
    return slots
  }

  /// Brings `mirror` up to date with the list and empties the journal.
  @usableFromInline
  mutating func update(_ mirror: inout SinkMirror) {
    if rebuilt {
      mirror.replaceAll(with: slots)
      rebuilt = false
    } else {
      for change in journal { mirror.set(change.index, change.sink) }
      journal.removeAll(keepingCapacity: true)
    }
  }

  private mutating func record(_ change: Change) {
    changed.raise()
    guard !rebuilt else { return }
    // A short list is cheaper to copy than to journal (no journal to allocate).
    if slots.count < 16 || journal.count >= slots.count {
      dropJournal()
    } else {
      journal.append(change)
    }
  }

  private mutating func dropJournal() {
    rebuilt = true
    journal = []
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
    dropJournal()
  }
}

/// Where a `SubscriberList` raises its owner's "changed" flag: an atomic at a stable address in the owner's
/// allocation (a subject's turn), which outlives the list.
@usableFromInline
struct ListChangedFlag: @unchecked Sendable {
  // guarded by: atomicity — the one stored property points to an `Atomic`, and is only ever used to load or store it.
  @usableFromInline let pointer: UnsafeMutablePointer<Atomic<Bool>>

  @usableFromInline
  init(_ pointer: UnsafeMutablePointer<Atomic<Bool>>) {
    self.pointer = pointer
  }

  func raise() {
    pointer.pointee.store(true, ordering: .relaxed)
  }
}

/// A subject's copy of its `SubscriberList`, for delivery: read by the thread in the subject's turn without
/// taking the subject's state lock, and brought up to date (under both) only when the list has changed.
///
/// Raw memory holding a retained reference per sink, so that a delivery walks it with no retain or release per
/// sink and none for the buffer. Not `Sendable`: it lives in the subject's turn, guarded by the turn lock.
@usableFromInline
struct SinkMirror {
  /// Slot 0, inline: a subject with one subscriber allocates no buffer.
  @usableFromInline private(set) var first: Unmanaged<SinkCore>?
  /// Slots 1 and up.
  @usableFromInline private(set) var rest: UnsafeMutablePointer<Unmanaged<SinkCore>?>?
  @usableFromInline private(set) var count = 0
  /// The number of slots `rest` has room for.
  private var capacity = 0

  @usableFromInline
  init() {}

  /// Calls `body` with every sink, in subscription order.
  @inlinable
  func forEachSink(_ body: (SinkCore) -> Void) {
    guard count > 0 else { return }
    if let first { first._withUnsafeGuaranteedRef(body) }
    guard count > 1, let rest else { return }
    for index in 0..<(count - 1) {
      if let sink = rest[index] { sink._withUnsafeGuaranteedRef(body) }
    }
  }

  /// Makes the slot at `index` hold `sink`; `index == count` appends.
  mutating func set(_ index: Int, _ sink: SinkCore?) {
    let new: Unmanaged<SinkCore>? = sink.map { .passRetained($0) }
    if index == 0 {
      first?.release()
      first = new
    } else if index == count {
      reserve(index)
      (rest! + (index - 1)).initialize(to: new)
    } else {
      rest![index - 1]?.release()
      rest![index - 1] = new
    }
    if index == count { count += 1 }
  }

  /// Makes the mirror a copy of `slots`.
  mutating func replaceAll(with slots: ContiguousArray<SinkCore?>) {
    removeAll()
    reserve(slots.count - 1)
    for sink in slots { set(count, sink) }
  }

  /// Releases every sink; keeps the memory.
  @usableFromInline
  mutating func removeAll() {
    first?.release()
    first = nil
    if count > 1, let rest {
      for index in 0..<(count - 1) { rest[index]?.release() }
      rest.deinitialize(count: count - 1)
    }
    count = 0
  }

  /// Releases every sink and the memory (the subject's `deinit`).
  mutating func deallocate() {
    removeAll()
    rest?.deallocate()
    rest = nil
    capacity = 0
  }

  /// Makes room for `minimum` slots in `rest`.
  private mutating func reserve(_ minimum: Int) {
    guard minimum > capacity else { return }
    let newCapacity = Swift.max(minimum, capacity * 2, 4)
    let newRest = UnsafeMutablePointer<Unmanaged<SinkCore>?>.allocate(capacity: newCapacity)
    if let rest {
      newRest.moveInitialize(from: rest, count: Swift.max(count - 1, 0))
      rest.deallocate()
    }
    rest = newRest
    capacity = newCapacity
  }
}
