extension MemoizedSequence {
  /// Transforms each element with `transform`: lazily, each element once, for a lazy sequence; at once for an
  /// eager one.
  ///
  /// ```swift
  /// let lengths = MemoizedSequence(["a", "bcd"]).map(\.count)  // 1, 3
  /// ```
  ///
  /// - Parameter transform: Applied to each element, once.
  /// - Returns: The sequence of the transformed elements.
  /// - Note: ReactiveCocoa 2.5 `-map:` on `RACSequence`. Returns a memoised sequence, not an array: the standard
  ///   library's `map` is still there for an array (`Array(sequence).map(…)` or `sequence.lazy.map(…)`).
  public func map<NewElement>(
    _ transform: @escaping @Sendable (Element) -> NewElement
  ) -> MemoizedSequence<NewElement> {
    if isEager { return .eager(ContiguousArray(self.lazy.map(transform))) }
    return MemoizedSequence<NewElement> {
      guard let (head, tail) = self.uncons else { return .empty }
      return .cons(transform(head), tail.map(transform))
    }
  }

  /// Keeps the elements that pass `isIncluded`: lazily for a lazy sequence, at once for an eager one.
  ///
  /// Finding the next kept element reads the elements before it in a loop, so long runs of rejected elements
  /// take no stack.
  ///
  /// ```swift
  /// let evens = MemoizedSequence(1...10).filter { $0 % 2 == 0 }
  /// ```
  ///
  /// - Parameter isIncluded: Called once per element read.
  /// - Returns: The sequence of the elements that pass.
  /// - Note: ReactiveCocoa 2.5 `-filter:` on `RACSequence`.
  public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> MemoizedSequence {
    if isEager { return .eager(ContiguousArray(self.lazy.filter(isIncluded))) }
    return MemoizedSequence {
      var remaining = self
      while let (head, tail) = remaining.uncons {
        if isIncluded(head) { return .cons(head, tail.filter(isIncluded)) }
        remaining = tail
      }
      return .empty
    }
  }

  /// This sequence's elements, then `other`'s.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2]).concat(MemoizedSequence([3])).array  // [1, 2, 3]
  /// ```
  ///
  /// - Parameter other: The elements that follow.
  /// - Returns: The concatenation; eager if this sequence is.
  /// - Note: ReactiveCocoa 2.5 `-concat:` on `RACSequence`.
  public func concat(_ other: MemoizedSequence) -> MemoizedSequence {
    if isEager { return .eager(ContiguousArray(self) + ContiguousArray(other)) }
    return MemoizedSequence {
      guard let (head, tail) = self.uncons else { return other.step }
      return .cons(head, tail.concat(other))
    }
  }

  /// Maps each element to a sequence and concatenates those sequences.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2]).flattenMap { MemoizedSequence(repeatElement($0, count: $0)) }.array  // [1, 2, 2]
  /// ```
  ///
  /// - Parameter transform: Maps an element to the sequence of its results; called once per element.
  /// - Returns: The concatenated results; eager if this sequence is.
  /// - Note: ReactiveCocoa 2.5 `-flattenMap:` on `RACSequence` (which concatenates, where a signal's merges).
  public func flattenMap<NewElement>(
    _ transform: @escaping @Sendable (Element) -> MemoizedSequence<NewElement>
  ) -> MemoizedSequence<NewElement> {
    if isEager { return .eager(ContiguousArray(self.lazy.flatMap { transform($0) })) }
    return MemoizedSequence<NewElement> {
      var remaining = self
      while let (head, tail) = remaining.uncons {
        if let (innerHead, innerTail) = transform(head).uncons {
          return .cons(innerHead, innerTail.lazySequence.concat(tail.flattenMap(transform)))
        }
        remaining = tail
      }
      return .empty
    }
  }

  /// Pairs the elements of this sequence and `other` in order, until either runs out.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2, 3]).zip(with: MemoizedSequence(["a", "b"])).array  // [(1, "a"), (2, "b")]
  /// ```
  ///
  /// - Parameter other: The second elements of the pairs.
  /// - Returns: The sequence of pairs; eager if this sequence is.
  /// - Note: ReactiveCocoa 2.5 `-zipWith:` on `RACSequence` (pairs are tuples, not `RACTuple`s).
  public func zip<Other>(with other: MemoizedSequence<Other>) -> MemoizedSequence<(Element, Other)> {
    if isEager { return .eager(ContiguousArray(Swift.zip(self, other))) }
    return MemoizedSequence<(Element, Other)> {
      guard let (head, tail) = self.uncons, let (otherHead, otherTail) = other.uncons else { return .empty }
      return .cons((head, otherHead), tail.zip(with: otherTail))
    }
  }

  /// Combines the elements from the first to the last: `reduce(reduce(start, e0), e1)…`.
  ///
  /// Runs in a loop, in constant stack depth.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2, 3]).foldLeft(0, +)  // 6
  /// ```
  ///
  /// - Parameters:
  ///   - start: The result for an empty sequence, and the first accumulator.
  ///   - reduce: Combines the accumulator with the next element.
  /// - Returns: The final accumulator.
  /// - Note: ReactiveCocoa 2.5 `-foldLeftWithStart:reduce:` (and the deprecated `-foldLeftWithStart:combine:`).
  public func foldLeft<Result>(_ start: Result, _ reduce: (Result, Element) throws -> Result) rethrows -> Result {
    try self.reduce(start, reduce)
  }

  /// Combines the elements from the last to the first, lazily: `reduce(e0, { reduce(e1, { … start }) })`.
  ///
  /// `reduce` receives an element and `rest`, a closure that folds the elements after it. `rest` computes that
  /// fold only if it is called, and once; a `reduce` that can answer without it stops the fold there (and reads
  /// no further element), which makes right folds over endless sequences possible. Each call of `rest` nests
  /// one level deeper, so folding a long sequence all the way uses stack in proportion to its length.
  ///
  /// ```swift
  /// // Whether any element is negative, reading only up to the first one that is.
  /// let anyNegative = MemoizedSequence([3, -1, 4]).foldRight(false) { element, rest in element < 0 || rest() }
  /// ```
  ///
  /// - Parameters:
  ///   - start: The fold of the empty rest.
  ///   - reduce: Combines an element with the fold of the elements after it.
  /// - Returns: The fold.
  /// - Note: ReactiveCocoa 2.5 `-foldRightWithStart:reduce:` (and the deprecated `-foldRightWithStart:combine:`).
  ///   RAC passed `rest` as a sequence whose `head` was the folded remainder; here it is a memoised closure.
  public func foldRight<Result>(_ start: Result, _ reduce: (Element, _ rest: () -> Result) -> Result) -> Result {
    // `rest` never outlives the call that receives it, so neither does `reduce`.
    withoutActuallyEscaping(reduce) { reduce in foldRightFrom(start, reduce) }
  }

  private func foldRightFrom<Result>(
    _ start: Result, _ reduce: @escaping (Element, _ rest: () -> Result) -> Result
  ) -> Result {
    guard let (head, tail) = uncons else { return start }
    var folded: Result?
    return reduce(head) {
      if let folded { return folded }
      let result = tail.foldRightFrom(start, reduce)
      folded = result
      return result
    }
  }

  /// Whether some element passes `predicate`. Reads elements only up to the first that does.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2, 3]).any { $0 > 2 }  // true
  /// ```
  ///
  /// - Parameter predicate: The test.
  /// - Returns: `true` if some element passes; `false` for an empty sequence.
  /// - Note: ReactiveCocoa 2.5 `-any:` on `RACSequence` (the standard library calls it `contains(where:)`).
  public func any(_ predicate: (Element) throws -> Bool) rethrows -> Bool {
    try contains(where: predicate)
  }

  /// Whether every element passes `predicate`. Reads elements only up to the first that does not.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2, 3]).all { $0 > 0 }  // true
  /// ```
  ///
  /// - Parameter predicate: The test.
  /// - Returns: `false` if some element fails; `true` for an empty sequence.
  /// - Note: ReactiveCocoa 2.5 `-all:` on `RACSequence` (the standard library calls it `allSatisfy(_:)`).
  public func all(_ predicate: (Element) throws -> Bool) rethrows -> Bool {
    try allSatisfy(predicate)
  }

  /// The first element that passes `predicate`, or `nil`. Reads elements only up to it.
  ///
  /// ```swift
  /// MemoizedSequence(["a", "bb", "ccc"]).first { $0.count > 1 }  // "bb"
  /// ```
  ///
  /// - Parameter predicate: The test.
  /// - Returns: The first element that passes, or `nil`.
  /// - Note: ReactiveCocoa 2.5 `-objectPassingTest:`.
  public func first(where predicate: (Element) throws -> Bool) rethrows -> Element? {
    var remaining = self
    while let (head, tail) = remaining.uncons {
      if try predicate(head) { return head }
      remaining = tail
    }
    return nil
  }

  /// An eager sequence of already computed elements.
  static func eager(_ elements: ContiguousArray<Element>) -> MemoizedSequence {
    MemoizedSequence(storage: .array(elements, offset: 0), isEager: true)
  }
}
