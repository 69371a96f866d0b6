/// A lazy, memoised, immutable sequence: each element is computed when it is first read, once, and kept.
///
/// A memoised sequence is a list of a ``head`` and a ``tail``. Reading an element of a lazy sequence runs the
/// work that produces it — at most once, however many times and from however many threads it is read; every
/// later read returns the kept element. Operations on a lazy sequence (``map(_:)``, ``filter(_:)``,
/// ``flattenMap(_:)``, ``concat(_:)``, ``zip(with:)``) are lazy too; on an eager one (``eagerSequence``) they
/// compute everything at once. It conforms to `Sequence`, so `for`-`in`, `reduce`, `contains` and the rest of
/// the standard library work on it; iterating does not keep the elements already passed, unless something
/// still holds the sequence they belong to.
///
/// ```swift
/// let squares = MemoizedSequence(1...3).map { n -> Int in
///   print("computing", n)
///   return n * n
/// }
/// print(squares.head!)  // computing 1, then 1
/// print(squares.head!)  // 1 — computed once
/// print(squares.array)  // computing 2, computing 3, then [1, 4, 9]
/// ```
///
/// When Swift's own `LazySequence` is the better tool: for a single pass over a collection or sequence you
/// already have (`numbers.lazy.map(f).filter(g)`), which recomputes elements on each pass, costs no
/// allocation per element, needs no `Sendable` elements and is specialised by the compiler. Reach for a
/// memoised sequence when elements are expensive and read more than once, when several threads share one
/// lazily-computed sequence, when code walks it by head and tail, or to turn a signal into a sequence
/// (``Signal/sequence``) or back (``signal(on:)``).
///
/// - Note: ReactiveCocoa 2.5 `RACSequence` (with `RACDynamicSequence`, `RACArraySequence`, `RACEagerSequence`).
///   RAC's `rac_sequence` collection bridges become ``init(_:)``; `objectEnumerator` and `NSFastEnumeration`
///   become `Sequence` conformance; `NSCoding` and `NSCopying` have no counterpart (the sequence is an
///   immutable value).
public struct MemoizedSequence<Element: Sendable>: Sendable {
  @usableFromInline
  enum Storage: Sendable {
    /// Elements already evaluated: a snapshot of a collection, or an eager sequence. `offset` is the head.
    case array(ContiguousArray<Element>, offset: Int)
    /// A lazy, memoised step.
    case node(MemoNode<Element>)
  }

  @usableFromInline let storage: Storage
  /// Whether operations on this sequence compute their results at once.
  @usableFromInline let isEager: Bool

  @usableFromInline
  init(storage: Storage, isEager: Bool) {
    self.storage = storage
    self.isEager = isEager
  }

  /// A lazy sequence whose first step is computed, once, by `step`.
  init(isEager: Bool = false, step: @escaping @Sendable () -> MemoStep<Element>) {
    self.init(storage: .node(MemoNode(step)), isEager: isEager)
  }

  /// A sequence of the elements of `elements`, taken now.
  ///
  /// Operations on it are lazy; see ``eagerSequence`` for eager ones.
  ///
  /// ```swift
  /// let letters = MemoizedSequence(["a", "b", "c"])
  /// print(letters.head!)  // a
  /// ```
  ///
  /// - Parameter elements: The elements; a finite sequence, read at once.
  /// - Note: ReactiveCocoa 2.5 `rac_sequence` on `NSArray`, `NSSet`, `NSOrderedSet`, `NSString`, `NSIndexSet`,
  ///   `NSDictionary` (and its `rac_keySequence`, `rac_valueSequence`) and `RACTuple`: each took a snapshot too.
  public init<S: Sequence>(_ elements: S) where S.Element == Element {
    self.init(storage: .array(ContiguousArray(elements), offset: 0), isEager: false)
  }

  /// A lazy sequence whose elements are produced, on demand and in order, by `next`, until it returns `nil`.
  ///
  /// `next` is called at most once per element, one call at a time, and never again after it has returned `nil`.
  /// Unlike ``init(_:)``, this suits endless sources and iterators.
  ///
  /// ```swift
  /// let lines = MemoizedSequence(generating: { readLine() })  // reads a line when it is first needed
  /// ```
  ///
  /// - Parameter next: Produces the next element, or `nil` at the end.
  /// - Note: ReactiveCocoa 2.5 `rac_sequence` on `NSEnumerator`.
  public init(generating next: @escaping @Sendable () -> Element?) {
    self = Self.generated(by: next)
  }

  private static func generated(by next: @escaping @Sendable () -> Element?) -> MemoizedSequence {
    MemoizedSequence {
      guard let element = next() else { return .empty }
      return .cons(element, generated(by: next))
    }
  }

  /// A lazy sequence whose head is computed by `head` and whose rest is computed by `tail`, each at most once.
  ///
  /// `head` returning `nil` makes the sequence empty (and `tail` is never called); `tail` returning `nil` ends it
  /// after the head. Reading the tail computes the head first. Both closures may run on any thread that first
  /// reads the sequence, one at a time.
  ///
  /// ```swift
  /// @Sendable func naturals(from n: Int) -> MemoizedSequence<Int> {
  ///   MemoizedSequence(head: { n }, tail: { naturals(from: n + 1) })
  /// }
  /// print(Array(naturals(from: 1).prefix(3)))  // [1, 2, 3]
  /// ```
  ///
  /// - Parameters:
  ///   - head: Computes the first element, or `nil` for an empty sequence.
  ///   - tail: Computes the rest, or `nil` for none.
  /// - Note: ReactiveCocoa 2.5 `+sequenceWithHeadBlock:tailBlock:`.
  public init(
    head: @escaping @Sendable () -> Element?, tail: @escaping @Sendable () -> MemoizedSequence<Element>?
  ) {
    self.init {
      guard let element = head() else { return .empty }
      return .cons(element, MemoizedSequence { tail()?.step ?? .empty })
    }
  }

  /// The empty sequence.
  ///
  /// ```swift
  /// MemoizedSequence<Int>.empty.isEmpty  // true
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `+[RACSequence empty]`.
  public static var empty: MemoizedSequence {
    MemoizedSequence(storage: .array([], offset: 0), isEager: false)
  }

  /// The sequence of one element.
  ///
  /// ```swift
  /// MemoizedSequence.return(42).array  // [42]
  /// ```
  ///
  /// - Parameter element: The element.
  /// - Note: ReactiveCocoa 2.5 `+[RACSequence return:]`.
  public static func `return`(_ element: Element) -> MemoizedSequence {
    MemoizedSequence(storage: .array([element], offset: 0), isEager: false)
  }

  // MARK: Head and tail

  /// The first step, computed once.
  var step: MemoStep<Element> {
    switch storage {
    case .array(let elements, let offset):
      guard offset < elements.count else { return .empty }
      return .cons(elements[offset], MemoizedSequence(storage: .array(elements, offset: offset + 1), isEager: isEager))
    case .node(let node):
      return node.value
    }
  }

  /// The head and the rest, or `nil` if empty.
  var uncons: (head: Element, tail: MemoizedSequence)? {
    guard case .cons(let head, let tail) = step else { return nil }
    return (head, tail)
  }

  /// The first element, or `nil` if the sequence is empty. Computed on the first read, once.
  ///
  /// ```swift
  /// MemoizedSequence([3, 4]).head  // 3
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `head`.
  public var head: Element? {
    uncons?.head
  }

  /// The elements after the first, or `nil` if the sequence is empty.
  ///
  /// Reading it computes the head (not the tail's own elements). It is `nil` only for an empty sequence: the
  /// tail of the last element is an empty sequence, whatever kind of sequence it is. For a sequence made with
  /// ``init(head:tail:)``, reading `tail` does not run the tail closure; reading that tail's head (or
  /// ``isEmpty``) does — one level later than RAC. So walk a sequence by testing `head`, not `tail`:
  ///
  /// ```swift
  /// MemoizedSequence([3, 4]).tail?.head  // 4
  /// MemoizedSequence.return(3).tail?.isEmpty  // true: not nil
  /// var rest = MemoizedSequence([3, 4])
  /// while let head = rest.head {
  ///   print(head)
  ///   rest = rest.tail!  // never nil while head is not
  /// }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `tail`, which differed by kind: the last `tail` of a `+return:` or head/tail-block
  ///   sequence was `nil` (and reading it ran the tail block), while an array's was an empty sequence. Here it is
  ///   always an empty sequence, evaluated when read; RAC loops of the form `for (s = seq; s != nil; s = s.tail)`
  ///   must test `head` instead.
  public var tail: MemoizedSequence? {
    uncons?.tail
  }

  /// Whether the sequence has no elements. Computes the head.
  ///
  /// ```swift
  /// MemoizedSequence<Int>([]).isEmpty  // true
  /// ```
  ///
  /// - Note: RAC tested `head == nil`.
  public var isEmpty: Bool {
    uncons == nil
  }

  /// All the elements, computed now. Does not return for an endless sequence.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2]).map { $0 * 2 }.array  // [2, 4]
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `array`.
  public var array: [Element] {
    Array(self)
  }

  /// An eager copy: every element is computed now, and operations on it compute their results at once.
  ///
  /// ```swift
  /// let squares = MemoizedSequence(1...1_000).map { $0 * $0 }  // lazy: nothing computed yet
  /// let evaluated = squares.eagerSequence  // computes every square now
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `eagerSequence`. Does not return for an endless sequence.
  public var eagerSequence: MemoizedSequence {
    MemoizedSequence(storage: .array(ContiguousArray(self), offset: 0), isEager: true)
  }

  /// A lazy copy: the same elements, and operations on it are lazy.
  ///
  /// ```swift
  /// let doubled = MemoizedSequence([1, 2, 3]).eagerSequence.lazySequence.map { $0 * 2 }  // computed when read
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `lazySequence`. (Not `lazy`, which is the standard library's `LazySequence`.)
  public var lazySequence: MemoizedSequence {
    MemoizedSequence(storage: storage, isEager: false)
  }
}

extension MemoizedSequence: Sequence {
  /// Walks a memoised sequence, keeping only its current position.
  ///
  /// ```swift
  /// var iterator = MemoizedSequence([1, 2]).makeIterator()
  /// iterator.next()  // 1
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `objectEnumerator` and `NSFastEnumeration`.
  public struct Iterator: IteratorProtocol {
    var remaining: MemoizedSequence?

    /// The next element, computed if it has not been yet, or `nil` at the end.
    ///
    /// ```swift
    /// var iterator = MemoizedSequence(["first line", "second line"]).makeIterator()
    /// while let line = iterator.next() { print(line) }
    /// ```
    ///
    /// - Note: ReactiveCocoa 2.5 `-[NSEnumerator nextObject]` on `objectEnumerator`.
    public mutating func next() -> Element? {
      guard let (head, tail) = remaining?.uncons else {
        remaining = nil
        return nil
      }
      remaining = tail
      return head
    }
  }

  /// An iterator over the elements; it keeps only its current position.
  ///
  /// ```swift
  /// for element in MemoizedSequence([1, 2, 3]) { print(element) }  // uses makeIterator()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `objectEnumerator`.
  public func makeIterator() -> Iterator {
    Iterator(remaining: self)
  }

  /// The number of elements known to be there without computing any: all of them for a sequence made from
  /// a collection or an eager one, 0 for a lazy one.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2, 3]).underestimatedCount  // 3
  /// ```
  ///
  /// - Note: Not in ReactiveCocoa 2.5 (a `Sequence` requirement).
  public var underestimatedCount: Int {
    if case .array(let elements, let offset) = storage { return elements.count - offset }
    return 0
  }
}

extension MemoizedSequence: Equatable where Element: Equatable {
  /// Whether both have the same elements in the same order. Computes them.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2]) == MemoizedSequence([1, 2])  // true
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-isEqual:` on `RACSequence`.
  public static func == (lhs: MemoizedSequence, rhs: MemoizedSequence) -> Bool {
    lhs.elementsEqual(rhs)
  }
}
