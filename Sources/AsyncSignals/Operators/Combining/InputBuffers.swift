/// The values that the inputs of `zip` or `combineLatest` have sent and that are not yet used: one FIFO
/// buffer per input, typed by that input's value type. Guarded by the operator's lock, like the rest of its
/// state; the state machine decides what to store and when to take an output.
///
/// One conformance serves two inputs of any types (``PairBuffers``; wider arities fold pairs, as RAC does), one
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

/// The buffers of exactly two inputs: what `zip(with:)` and `combineLatest(with:)` use, and, folded pairwise,
/// their wider arities. (Parameter packs were tried: they are expanded by a loop over type metadata at run time,
/// which the optimiser does not unroll, so every value went through unspecialised code — 20 µs an event for a
/// combineLatest of four nested seven deep. Two plain generic parameters specialise fully in the caller's
/// module.)
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
