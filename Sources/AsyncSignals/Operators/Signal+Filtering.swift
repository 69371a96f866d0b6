// Operators that pass some of the values through: filter, ignore, take, skip and distinctUntilChanged.
//
// `filter` and `ignore` are plain forwarding. The others keep their state in an `ObserverState` box, one per
// subscription, which needs no lock: the observer that owns it is called one event at a time (see
// `Core/Observer.swift`). An operator that ends the result on its own (`take` after its last value,
// `take(until:)` on a match) records that it has finished before it sends `completed`: a downstream that
// sends back into the source from its callback may make the source call this observer again, nested, before
// the `.stop` answer has reached the source, and such calls must be answered `.stop` without being forwarded.

extension Signal {
  /// Keeps the values for which `isIncluded` returns `true`.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// numbers.filter { $0.isMultiple(of: 2) }.subscribeNext { print($0) }  // the even ones
  /// ```
  ///
  /// - Parameter isIncluded: Decides, one value at a time, whether a value passes.
  /// - Returns: A signal of the values that pass.
  /// - Note: ReactiveCocoa 2.5 `-filter:`. RAC builds it on `flattenMap:`; the behaviour is the same.
  @inlinable
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("filter")) { observer in
      self.attach(.passing(to: observer, where: isIncluded))
    }
  }

  /// The first `count` values, after which the result completes.
  ///
  /// The result completes right after the `count`-th value and disposes the upstream subscription; it
  /// passes on a failure or completion that comes first. `take(0)` completes at once without subscribing.
  ///
  /// ```swift
  /// clicks.take(1).subscribeNext { print("first click", $0) }
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many values to pass; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of at most `count` values.
  /// - Note: ReactiveCocoa 2.5 `-take:` (`take:0` is `+empty`).
  @inlinable
  public func take(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Signal<Value, Failure> {
    precondition(count >= 0, "take(_:): count must not be negative", file: file, line: line)
    guard count > 0 else {
      return AnonymousSignal(nameSource: derivedName("take(0)")) { observer in Signal.empty.attach(observer) }
    }
    return AnonymousSignal(nameSource: derivedName("take(\(count))")) { observer in
      // The values still to pass; 0 once the result has ended.
      let remaining = ObserverState(count)
      return self.attach(carryingDemandOf: observer) { event in
        guard remaining.value > 0 else { return .stop }
        guard case .next = event else {
          remaining.value = 0
          return observer(event)
        }
        remaining.value -= 1
        let isLast = remaining.value == 0
        let flow = observer(event)
        guard isLast else { return flow }
        if flow == .proceed { _ = observer(.completed) }
        return .stop
      }
    }
  }

  /// The values after the first `count`.
  ///
  /// Failures and completion pass through, even while values are still being skipped; disposing the result
  /// disposes the upstream subscription.
  ///
  /// ```swift
  /// lines.skip(1).subscribeNext { print("row", $0) }  // all but the header
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many values to drop; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the values after the first `count`.
  /// - Note: ReactiveCocoa 2.5 `-skip:`.
  @inlinable
  public func skip(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Signal<Value, Failure> {
    precondition(count >= 0, "skip(_:): count must not be negative", file: file, line: line)
    guard count > 0 else { return self }
    return AnonymousSignal(nameSource: derivedName("skip(\(count))")) { observer in
      let remaining = ObserverState(count)
      return self.attach(
        .passing(to: observer) { _ in
          guard remaining.value > 0 else { return true }
          remaining.value -= 1
          return false
        })
    }
  }

  /// The values up to, but not including, the first one for which `predicate` returns `true`; the result
  /// then completes.
  ///
  /// The matching value is not sent; the result completes in its place and disposes the upstream
  /// subscription. A failure or completion that comes first passes through.
  ///
  /// ```swift
  /// let beforeQuit = lines.take(until: { $0 == "quit" })  // "quit" itself is not sent
  /// ```
  ///
  /// - Parameter predicate: Called with each value until it returns `true`.
  /// - Returns: A signal of the values before the first match.
  /// - Note: ReactiveCocoa 2.5 `-takeUntilBlock:`. (`take(until:)` with a signal is `-takeUntil:`.)
  @inlinable
  public func take(until predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
    takeUntilMatch(predicate, nameSource: derivedName("take(until:)"))
  }

  /// The values up to, but not including, the first one for which `predicate` returns `false`; the result
  /// then completes.
  ///
  /// The first failing value is not sent; the result completes in its place and disposes the upstream
  /// subscription. A failure or completion that comes first passes through.
  ///
  /// ```swift
  /// let untilFirstZero = scores.take(while: { $0 > 0 })  // 3, 5, 0, 2 -> 3, 5
  /// ```
  ///
  /// - Parameter predicate: Called with each value until it returns `false`.
  /// - Returns: A signal of the leading values that pass.
  /// - Note: ReactiveCocoa 2.5 `-takeWhileBlock:`.
  @inlinable
  public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
    takeUntilMatch({ !predicate($0) }, nameSource: derivedName("take(while:)"))
  }

  @inlinable
  func takeUntilMatch(
    _ predicate: @escaping @Sendable (Value) -> Bool, nameSource: SignalName
  ) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: nameSource) { observer in
      let finished = ObserverState(false)
      return self.attach(carryingDemandOf: observer) { event in
        guard !finished.value else { return .stop }
        guard case .next(let value) = event else {
          finished.value = true
          return observer(event)
        }
        guard predicate(value) else { return observer(event) }
        finished.value = true
        _ = observer(.completed)
        return .stop
      }
    }
  }

  /// Drops values until `predicate` returns `true` for one, then passes that value and every later one.
  ///
  /// `predicate` is not called again once it has returned `true`. Failures and completion pass through;
  /// disposing the result disposes the upstream subscription.
  ///
  /// ```swift
  /// let body = lines.skip(until: { $0.isEmpty })  // from the blank line that ends the headers on
  /// ```
  ///
  /// - Parameter predicate: Called with each value until it returns `true`.
  /// - Returns: A signal of the values from the first match on.
  /// - Note: ReactiveCocoa 2.5 `-skipUntilBlock:`.
  @inlinable
  public func skip(until predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
    skipUntilMatch(predicate, nameSource: derivedName("skip(until:)"))
  }

  /// Drops values while `predicate` returns `true`, then passes the first value for which it returns
  /// `false` and every later one.
  ///
  /// `predicate` is not called again once it has returned `false`. Failures and completion pass through;
  /// disposing the result disposes the upstream subscription.
  ///
  /// ```swift
  /// let trimmed = lines.skip(while: { $0.isEmpty })  // without the leading blank lines
  /// ```
  ///
  /// - Parameter predicate: Called with each value until it returns `false`.
  /// - Returns: A signal of the values from the first one that fails `predicate` on.
  /// - Note: ReactiveCocoa 2.5 `-skipWhileBlock:`.
  @inlinable
  public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
    skipUntilMatch({ !predicate($0) }, nameSource: derivedName("skip(while:)"))
  }

  @inlinable
  func skipUntilMatch(
    _ predicate: @escaping @Sendable (Value) -> Bool, nameSource: SignalName
  ) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: nameSource) { observer in
      let skipping = ObserverState(true)
      return self.attach(carryingDemandOf: observer) { event in
        if skipping.value, case .next(let value) = event {
          guard predicate(value) else { return .proceed }
          skipping.value = false
        }
        return observer(event)
      }
    }
  }

  /// Drops each value that `areEquivalent` finds equivalent to the last value sent.
  ///
  /// The first value always passes. Failures and completion pass through; disposing the result disposes the
  /// upstream subscription.
  ///
  /// ```swift
  /// // "Swift", "swift", "Swifts" -> "Swift", "Swifts": a change of case alone is not sent
  /// let distinctQueries = searchText.distinctUntilChanged(by: { $0.lowercased() == $1.lowercased() })
  /// ```
  ///
  /// - Parameter areEquivalent: Called with the last value sent and the new one.
  /// - Returns: A signal without consecutive equivalent values.
  /// - Note: ReactiveCocoa 2.5 `-distinctUntilChanged`, with the comparison given by a closure instead of
  ///   `-isEqual:`.
  @inlinable
  public func distinctUntilChanged(
    by areEquivalent: @escaping @Sendable (Value, Value) -> Bool
  ) -> Signal<Value, Failure> {
    distinctUntilChanged(by: areEquivalent, nameSource: derivedName("distinctUntilChanged(by:)"))
  }

  @inlinable
  func distinctUntilChanged(
    by areEquivalent: @escaping @Sendable (Value, Value) -> Bool, nameSource: SignalName
  ) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: nameSource) { observer in
      // The last value sent.
      let previous = ObserverState<Value?>(nil)
      return self.attach(
        .passing(to: observer) { value in
          if let last = previous.value, areEquivalent(last, value) { return false }
          previous.value = value
          return true
        })
    }
  }
}

extension Signal where Value: Equatable {
  /// Drops every value equal to `value`.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// let nonEmpty = queries.ignore("")
  /// ```
  ///
  /// - Parameter value: The value to drop (`nil` to drop `nil`s from a signal of optionals).
  /// - Returns: A signal of the other values.
  /// - Note: ReactiveCocoa 2.5 `-ignore:`, comparing with `==` (RAC compared identity, then `-isEqual:`).
  @inlinable
  public func ignore(_ value: Value) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("ignore(\(value))")) { observer in
      self.attach(.passing(to: observer) { received in received != value })
    }
  }

  /// Drops each value equal to the last value sent.
  ///
  /// The first value always passes. Failures and completion pass through; disposing the result disposes the
  /// upstream subscription.
  ///
  /// ```swift
  /// let changes = temperature.distinctUntilChanged()  // 20, 20, 21, 20 -> 20, 21, 20
  /// ```
  ///
  /// - Returns: A signal without consecutive duplicates.
  /// - Note: ReactiveCocoa 2.5 `-distinctUntilChanged`, comparing with `==` (RAC compared identity, then
  ///   `-isEqual:`).
  @inlinable
  public func distinctUntilChanged() -> Signal<Value, Failure> {
    distinctUntilChanged(by: ==, nameSource: derivedName("distinctUntilChanged()"))
  }
}
