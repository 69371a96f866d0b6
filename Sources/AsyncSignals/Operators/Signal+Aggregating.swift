// Operators that reduce a signal to a few values: collect, takeLast, aggregate, any and all.
//
// Each keeps its state in an `ObserverState` box, one per subscription, which needs no lock: the observer
// that owns it is called one event at a time (see `Core/Observer.swift`). `collect`, `takeLast` and
// `aggregate` send only when the source completes; a failure passes through and discards what was
// gathered. `any` and `all` may end the result on a value; like `take`, they record that before they send,
// and answer `.stop` to anything the source sends afterwards.

extension Signal {
  /// Sends one array of all the values when the signal completes.
  ///
  /// The array is sent, followed by completion, when the source completes — an empty array if it sent no
  /// values. A failure passes through and nothing else is sent. Disposing the result disposes the upstream
  /// subscription and discards the values gathered.
  ///
  /// ```swift
  /// lines.collect().subscribeNext { print("\($0.count) lines") }
  /// ```
  ///
  /// - Returns: A signal of one array.
  /// - Note: ReactiveCocoa 2.5 `-collect` (Swift arrays hold `nil` as is: there is no `NSNull`).
  @inlinable
  public func collect() -> Signal<[Value], Failure> {
    AnonymousSignal(nameSource: derivedName("collect()")) { observer in
      let values = ObserverState<[Value]>([])
      return self.attach { event in
        switch event {
        case .next(let value):
          values.value.append(value)
          return .proceed
        case .error(let error):
          values.value = []
          return observer(.error(error))
        case .completed:
          let all = values.value
          values.value = []
          guard observer(.next(all)) == .proceed else { return .stop }
          return observer(.completed)
        }
      }
    }
  }

  /// Sends the last `count` values when the signal completes.
  ///
  /// The values are sent in their order, followed by completion, when the source completes; fewer if it
  /// sent fewer. A failure passes through and nothing else is sent. Disposing the result disposes the
  /// upstream subscription. At most `count` values are kept at a time.
  ///
  /// ```swift
  /// logLines.takeLast(10).collect().subscribeNext { print("tail:", $0) }
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many values to keep; must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the last `count` values.
  /// - Note: ReactiveCocoa 2.5 `-takeLast:`.
  @inlinable
  public func takeLast(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Signal<Value, Failure> {
    precondition(count >= 0, "takeLast(_:): count must not be negative", file: file, line: line)
    return AnonymousSignal(nameSource: derivedName("takeLast(\(count))")) { observer in
      let last = ObserverState(Ring<Value>())
      // The values kept are sent in one burst at completion, with no sink between this observer and the subscriber
      // to see a disposal made in the callback of one of them, and a subscriber made of closures answers `.proceed`
      // whatever its callback did. So the burst checks, before each event, a flag that only disposing this
      // subscription sets (guarantee 2); the values on their way in are not checked.
      let disposed = ActionDisposable()  // no action: a flag that its `dispose()` sets
      let upstream = self.attach { event in
        switch event {
        case .next(let value):
          guard count > 0 else { return .proceed }
          if last.value.count == count { _ = last.value.popFirst() }
          last.value.append(value)
          return .proceed
        case .error(let error):
          last.value.removeAll()
          return observer(.error(error))
        case .completed:
          while let value = last.value.popFirst() {
            guard !disposed.isDisposed, observer(.next(value)) == .proceed else {
              last.value.removeAll()
              return .stop
            }
          }
          return disposed.isDisposed ? .stop : observer(.completed)
        }
      }
      return CallbackSubscription(upstream, flag: disposed)
    }
  }

  /// Combines all the values into one result, sent when the signal completes.
  ///
  /// `nextPartialResult` receives the result so far (`initial` for the first value) and each value. The
  /// final result — `initial` if the source sent no values — is sent, followed by completion, when the
  /// source completes. A failure passes through and nothing else is sent. Disposing the result disposes the
  /// upstream subscription.
  ///
  /// ```swift
  /// let total = amounts.aggregate(0) { sum, amount in sum + amount }
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The result before the first value.
  ///   - nextPartialResult: Combines the result so far with a value.
  /// - Returns: A signal of the final result.
  /// - Note: ReactiveCocoa 2.5 `-aggregateWithStart:reduce:`.
  @inlinable
  public func aggregate<Result: Sendable>(
    _ initial: Result, _ nextPartialResult: @escaping @Sendable (Result, Value) -> Result
  ) -> Signal<Result, Failure> {
    aggregate(makeInitial: { initial }, nameSource: derivedName("aggregate")) { result, value, _ in
      nextPartialResult(result, value)
    }
  }

  /// Combines all the values, and their indexes, into one result, sent when the signal completes.
  ///
  /// As ``aggregate(_:_:)``, with the 0-based index of each value passed as well.
  ///
  /// ```swift
  /// let checksum = bytes.aggregate(0, withIndex: { sum, byte, index in sum &+ Int(byte) &* (index + 1) })
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The result before the first value.
  ///   - nextPartialResult: Combines the result so far with a value and its index.
  /// - Returns: A signal of the final result.
  /// - Note: ReactiveCocoa 2.5 `-aggregateWithStart:reduceWithIndex:`.
  @inlinable
  public func aggregate<Result: Sendable>(
    _ initial: Result, withIndex nextPartialResult: @escaping @Sendable (Result, Value, Int) -> Result
  ) -> Signal<Result, Failure> {
    aggregate(makeInitial: { initial }, nameSource: derivedName("aggregate(_:withIndex:)"), nextPartialResult)
  }

  /// Combines all the values into one result, starting from a value made anew for each subscription.
  ///
  /// As ``aggregate(_:_:)``, except that `startFactory` is called at the start of each subscription to make
  /// the initial result: use it when the result is an object that subscriptions must not share.
  ///
  /// ```swift
  /// let histogram = words.aggregate(startFactory: { Histogram() }) { histogram, word in
  ///   histogram.count(word)
  ///   return histogram
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - startFactory: Makes the initial result of one subscription.
  ///   - nextPartialResult: Combines the result so far with a value.
  /// - Returns: A signal of the final result.
  /// - Note: ReactiveCocoa 2.5 `-aggregateWithStartFactory:reduce:`.
  @inlinable
  public func aggregate<Result: Sendable>(
    startFactory: @escaping @Sendable () -> Result, _ nextPartialResult: @escaping @Sendable (Result, Value) -> Result
  ) -> Signal<Result, Failure> {
    aggregate(makeInitial: startFactory, nameSource: derivedName("aggregate(startFactory:_:)")) { result, value, _ in
      nextPartialResult(result, value)
    }
  }

  @inlinable
  func aggregate<Result: Sendable>(
    makeInitial: @escaping @Sendable () -> Result, nameSource: SignalName,
    _ nextPartialResult: @escaping @Sendable (Result, Value, Int) -> Result
  ) -> Signal<Result, Failure> {
    AnonymousSignal(nameSource: nameSource) { observer in
      let state = ObserverState((result: makeInitial(), index: 0))
      return self.attach { event in
        switch event {
        case .next(let value):
          state.value = (nextPartialResult(state.value.result, value, state.value.index), state.value.index + 1)
          return .proceed
        case .error(let error):
          return observer(.error(error))
        case .completed:
          guard observer(.next(state.value.result)) == .proceed else { return .stop }
          return observer(.completed)
        }
      }
    }
  }

  /// Sends `true` and completes as soon as the signal sends a value; sends `false` if it completes without
  /// one.
  ///
  /// The source is disposed after its first value. A failure that comes first passes through.
  ///
  /// ```swift
  /// let answered = search.any()  // true at the first value, even an empty list; false if there is none
  /// ```
  ///
  /// - Returns: A signal of one Boolean.
  /// - Note: ReactiveCocoa 2.5 `-any`, except that a failure is forwarded: RAC turned it into `NO`, which
  ///   would drop it silently (guarantee 9). Add `.catch(to: Signal<Bool, Never>.return(false))` for RAC's behaviour.
  @inlinable
  public func any() -> Signal<Bool, Failure> {
    decide(nameSource: derivedName("any()"), onValue: { _ in true }, atCompletion: false)
  }

  /// Sends `true` and completes as soon as the signal sends a value that satisfies `predicate`; sends
  /// `false` if it completes without one.
  ///
  /// The source is disposed after the first match. A failure that comes first passes through.
  ///
  /// ```swift
  /// let anyHighScore = scores.any(where: { $0 >= 100 })
  /// ```
  ///
  /// - Parameter predicate: Called with each value until it returns `true`.
  /// - Returns: A signal of one Boolean.
  /// - Note: ReactiveCocoa 2.5 `-any:`, except that a failure is forwarded: RAC turned it into `NO`, which
  ///   would drop it silently (guarantee 9). Add `.catch(to: Signal<Bool, Never>.return(false))` for RAC's behaviour.
  @inlinable
  public func any(where predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
    decide(nameSource: derivedName("any(where:)"), onValue: { predicate($0) ? true : nil }, atCompletion: false)
  }

  /// Sends `false` and completes as soon as the signal sends a value that fails `predicate`; sends `true` if
  /// it completes without one.
  ///
  /// The source is disposed after the first failing value. A failure of the signal that comes first passes
  /// through.
  ///
  /// ```swift
  /// let allAdults = ages.all(where: { $0 >= 18 })
  /// ```
  ///
  /// - Parameter predicate: Called with each value until it returns `false`.
  /// - Returns: A signal of one Boolean.
  /// - Note: ReactiveCocoa 2.5 `-all:`, except that a failure is forwarded: RAC turned it into `NO`, which
  ///   would drop it silently (guarantee 9). Add `.catch(to: Signal<Bool, Never>.return(false))` for RAC's behaviour.
  @inlinable
  public func all(where predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
    decide(nameSource: derivedName("all(where:)"), onValue: { predicate($0) ? nil : false }, atCompletion: true)
  }

  /// Sends the first answer `onValue` gives (not `nil`) and completes, or `atCompletion` when the source
  /// completes first.
  @inlinable
  func decide(
    nameSource: SignalName, onValue: @escaping @Sendable (Value) -> Bool?, atCompletion: Bool
  ) -> Signal<Bool, Failure> {
    AnonymousSignal(nameSource: nameSource) { observer in
      let finished = ObserverState(false)
      return self.attach { event in
        guard !finished.value else { return .stop }
        let answer: Bool
        switch event {
        case .next(let value):
          guard let decided = onValue(value) else { return .proceed }
          answer = decided
        case .error(let error):
          finished.value = true
          return observer(.error(error))
        case .completed:
          answer = atCompletion
        }
        finished.value = true
        if observer(.next(answer)) == .proceed { _ = observer(.completed) }
        return .stop
      }
    }
  }
}
