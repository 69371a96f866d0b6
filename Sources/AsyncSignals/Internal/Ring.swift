/// A growable FIFO ring buffer: O(1) `append` and `popFirst`, no shifting.
///
/// Operators that buffer (zip, the hand-off queue of multi-input operators) use it so that one side running a
/// million values ahead costs linear time, not the quadratic time of removing from the front of an array.
/// `package` so that the Interop module's buffers use it too; it is not public API.
@usableFromInline
package struct Ring<Element> {
  @usableFromInline var slots: ContiguousArray<Element?> = []
  @usableFromInline var head = 0
  @usableFromInline package internal(set) var count = 0

  @inlinable
  package init() {}

  @inlinable
  package var isEmpty: Bool { count == 0 }

  @inlinable
  package var first: Element? { count == 0 ? nil : slots[head] }

  @inlinable
  package mutating func append(_ element: Element) {
    if count == slots.count { grow() }
    var index = head + count
    if index >= slots.count { index -= slots.count }
    slots[index] = element
    count += 1
  }

  @inlinable
  package mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = slots[head].take()
    head += 1
    if head == slots.count { head = 0 }
    count -= 1
    return element
  }

  /// Removes every element, keeping the capacity.
  @inlinable
  package mutating func removeAll() {
    while popFirst() != nil {}
    head = 0
  }

  @usableFromInline
  mutating func grow() {
    let capacity = Swift.max(4, slots.count * 2)
    var grown = ContiguousArray<Element?>(repeating: nil, count: capacity)
    for offset in 0..<count {
      var index = head + offset
      if index >= slots.count { index -= slots.count }
      grown[offset] = slots[index].take()
    }
    slots = grown
    head = 0
  }
}

extension Ring: Sendable where Element: Sendable {}
