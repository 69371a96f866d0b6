/// The values that the inputs of `zip` or `combineLatest` have sent and that are not yet used: one FIFO
/// buffer per input, typed by that input's value type. Guarded by the operator's lock, like the rest of its
/// state; the state machine decides what to store and when to take an output.
///
/// One conformance serves every arity of heterogeneous inputs (``PackBuffers``, built on parameter packs), one
/// serves a collection of inputs of one type (``ArrayBuffers``): the engines are written once.
@usableFromInline
protocol InputBuffers: Sendable {
  /// What one value of every input combines into: a flat tuple, or an array.
  associatedtype Output: Sendable

  /// Removes the first value of every buffer and returns them combined. Every buffer must hold one.
  @inlinable
  mutating func popFirst() -> Output

  /// The first value of every buffer, combined, without removing them. Every buffer must hold one.
  @inlinable
  func first() -> Output

  /// Removes the first value of the buffer of input `index`, which must hold one.
  @inlinable
  mutating func removeFirst(at index: Int)

  /// Empties every buffer (the operator has ended: nothing buffered may outlive it).
  @inlinable
  mutating func removeAll()
}

/// One input's buffer, an object so that the input's observer can store into it through a typed reference
/// while the buffers are reached through a parameter pack.
@usableFromInline
final class InputBuffer<Element: Sendable>: @unchecked Sendable {
  // guarded by: the state lock of the operator whose `PackBuffers` holds this buffer.
  @usableFromInline
  var ring = Ring<Element>()

  @inlinable
  init() {}
}

/// The buffers of heterogeneous inputs, one ``InputBuffer`` per element of the pack: every arity of the
/// Swift-native `zip` and `combineLatest` goes through this one type.
@usableFromInline
struct PackBuffers<each Element: Sendable>: InputBuffers {
  @usableFromInline
  let slots: (repeat InputBuffer<each Element>)

  @inlinable
  init() {
    slots = (repeat InputBuffer<each Element>())
  }

  @inlinable
  func popFirst() -> (repeat each Element) {
    (repeat Self.popFirst(each slots))
  }

  @inlinable
  func first() -> (repeat each Element) {
    (repeat Self.first(each slots))
  }

  @inlinable
  func removeFirst(at index: Int) {
    var position = 0
    for slot in repeat each slots {
      if position == index { _ = slot.ring.popFirst() }
      position += 1
    }
  }

  @inlinable
  func removeAll() {
    for slot in repeat each slots { slot.ring.removeAll() }
  }

  @inlinable
  static func popFirst<Value>(_ slot: InputBuffer<Value>) -> Value {
    guard let value = slot.ring.popFirst() else { preconditionFailure("PackBuffers: popFirst() on an empty buffer") }
    return value
  }

  @inlinable
  static func first<Value>(_ slot: InputBuffer<Value>) -> Value {
    guard let value = slot.ring.first else { preconditionFailure("PackBuffers: first() on an empty buffer") }
    return value
  }
}

/// The buffers of exactly two inputs: what `zip(with:)` and `combineLatest(with:)` use. Parameter packs are
/// expanded by a loop over type metadata at run time, which the optimiser does not unroll, so every value of
/// a pack-based operator goes through unspecialised code; two plain generic parameters specialise fully in the
/// caller's module.
@usableFromInline
struct PairBuffers<First: Sendable, Second: Sendable>: InputBuffers {
  @usableFromInline var left = Ring<First>()
  @usableFromInline var right = Ring<Second>()

  @inlinable
  init() {}

  @inlinable
  mutating func popFirst() -> (First, Second) {
    guard let first = left.popFirst(), let second = right.popFirst() else {
      preconditionFailure("PairBuffers: popFirst() on an empty buffer")
    }
    return (first, second)
  }

  @inlinable
  func first() -> (First, Second) {
    guard let first = left.first, let second = right.first else {
      preconditionFailure("PairBuffers: first() on an empty buffer")
    }
    return (first, second)
  }

  @inlinable
  mutating func removeFirst(at index: Int) {
    if index == 0 { _ = left.popFirst() } else { _ = right.popFirst() }
  }

  @inlinable
  mutating func removeAll() {
    left.removeAll()
    right.removeAll()
  }
}

/// The buffers of a collection of inputs of one type: `Signal.zip(_:)` and `Signal.combineLatest(_:)` over a
/// collection.
@usableFromInline
struct ArrayBuffers<Element: Sendable>: InputBuffers {
  @usableFromInline
  var rings: [Ring<Element>]

  @inlinable
  init(count: Int) {
    rings = Array(repeating: Ring(), count: count)
  }

  @inlinable
  mutating func append(_ value: Element, at index: Int) {
    rings[index].append(value)
  }

  @inlinable
  mutating func popFirst() -> [Element] {
    var output: [Element] = []
    output.reserveCapacity(rings.count)
    for index in rings.indices {
      guard let value = rings[index].popFirst() else {
        preconditionFailure("ArrayBuffers: popFirst() on an empty buffer")
      }
      output.append(value)
    }
    return output
  }

  @inlinable
  func first() -> [Element] {
    rings.map { ring in
      guard let value = ring.first else { preconditionFailure("ArrayBuffers: first() on an empty buffer") }
      return value
    }
  }

  @inlinable
  mutating func removeFirst(at index: Int) {
    _ = rings[index].popFirst()
  }

  @inlinable
  mutating func removeAll() {
    for index in rings.indices { rings[index].removeAll() }
  }
}
