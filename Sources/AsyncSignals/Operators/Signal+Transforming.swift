// Operators that transform values one at a time: map, compactMap, replace, startWith, scan and combinePrevious.
//
// `map`, `compactMap` and `replace` are plain forwarding. `scan` and `combinePrevious` keep their running value in an
// `ObserverState` box, one per subscription, which needs no lock: the observer that owns it is called one
// event at a time (see `Core/Observer.swift`). They update it before forwarding, so that a value the
// downstream sends back into the source, and which arrives nested inside the forwarding call, sees it.

extension Signal {
  /// Transforms each value with `transform`.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// prices.map { $0 * 1.2 }.subscribeNext { print("with tax:", $0) }
  /// ```
  ///
  /// - Parameter transform: Applied to each value, one at a time.
  /// - Returns: A signal of the transformed values.
  /// - Note: ReactiveCocoa 2.5 `-map:`. RAC builds it on `flattenMap:` and `+return:`, subscribing to one
  ///   signal per value; the behaviour is the same, the cost is not.
  @inlinable
  public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Signal<NewValue, Failure> {
    AnonymousSignal(nameSource: derivedName("map")) { observer in
      // One raw closure that calls `transform` itself: the shape of `filter`. Going through
      // `forwardingTerminal` cost a second closure per event and a second context per subscription.
      self.attach(
        Observer(
          raw: { kind, payload in
            guard kind == .next else { return observer.raw(kind, payload) }
            return observer.sendNext(transform(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee))
          }, demand: observer.demand))
    }
  }

  /// Transforms each value with `transform` and sends the results that are not `nil`, skipping the rest.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding, as `map` and `filter` are: no allocation and no lock per event. It sends at most one value per
  /// value, on the thread that sent it, so it carries a bounded consumer's pause (the Interop article "Flow
  /// Control"), as `map` does.
  ///
  /// ```swift
  /// let numbers = lines.compactMap { Int($0) }  // "12", "x", "7" → 12, 7
  /// ```
  ///
  /// - Parameter transform: Applied to each value, one at a time; `nil` drops the value.
  /// - Returns: A signal of the non-`nil` results.
  /// - Note: No ReactiveCocoa 2.5 counterpart (there, `-map:` then `-filter:` and `-map:` again, or `-flattenMap:`
  ///   returning `+empty`); Combine's, RxSwift's, ReactiveSwift's and AsyncAlgorithms' `compactMap`.
  @inlinable
  public func compactMap<NewValue>(
    _ transform: @escaping @Sendable (Value) -> NewValue?
  ) -> Signal<NewValue, Failure> {
    AnonymousSignal(nameSource: derivedName("compactMap")) { observer in
      self.attach(
        Observer(
          raw: { kind, payload in
            guard kind == .next else { return observer.raw(kind, payload) }
            guard let value = transform(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee) else {
              return .proceed
            }
            return observer.sendNext(value)
          }, demand: observer.demand))  // at most one value per value, on the sending thread: carries the pause
    }
  }

  /// Replaces every value with `value`.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// let taps = clicks.replace(with: ())  // Signal<Void, Never>
  /// ```
  ///
  /// - Parameter value: Sent in place of each value.
  /// - Returns: A signal that sends `value` once for each value of this one.
  /// - Note: ReactiveCocoa 2.5 `-mapReplace:`.
  @inlinable
  public func replace<NewValue: Sendable>(with value: NewValue) -> Signal<NewValue, Failure> {
    AnonymousSignal(nameSource: derivedName("replace(with: \(value))")) { observer in
      self.attach(.forwardingTerminal(to: observer) { _ in observer.sendNext(value) })
    }
  }

  /// Sends `value` first, then this signal's events.
  ///
  /// `value` is sent at once as each subscription starts, on the subscribing thread, before `subscribe` returns;
  /// this signal is attached right after, also before `subscribe` returns, unless the first value stopped the
  /// subscription (`take(1)`). So a value sent to a subject right after subscribing to `subject.startWith(…)`
  /// is never lost, from any thread (guarantee 5). Only this signal's own subscribe body, if it has one,
  /// follows the subscription scheduler.
  ///
  /// ```swift
  /// let status = updates.startWith("loading…")
  /// ```
  ///
  /// - Parameter value: The first value.
  /// - Returns: A signal of `value` followed by this signal's events.
  /// - Note: ReactiveCocoa 2.5 `-startWith:` (`[[RACSignal return:value] concat:self]`). A deliberate
  ///   difference: RAC's `+return:` deferred both the first value and the subscription to this signal to the
  ///   subscription scheduler, so that from a background thread values sent meanwhile were lost; here both
  ///   happen at once.
  @inlinable
  public func startWith(_ value: Value) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("startWith(\(value))")) { observer in
      guard observer.sendNext(value) == .proceed else { return DisposedDisposable.shared }
      return self.attach(observer)
    }
  }

  /// Sends the running result of combining each value into an accumulator that starts at `initial`.
  ///
  /// For each value, `nextPartialResult` receives the previous result (`initial` for the first value) and
  /// the value; its result is sent and kept for the next value. Each subscription starts again from
  /// `initial`. Failures and completion pass through; disposing the result disposes the upstream
  /// subscription.
  ///
  /// ```swift
  /// let runningTotal = amounts.scan(0) { total, amount in total + amount }  // 1, 2, 3 -> 1, 3, 6
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The accumulator before the first value.
  ///   - nextPartialResult: Combines the accumulator with a value.
  /// - Returns: A signal of every intermediate result.
  /// - Note: ReactiveCocoa 2.5 `-scanWithStart:reduce:`.
  @inlinable
  public func scan<Result: Sendable>(
    _ initial: Result, _ nextPartialResult: @escaping @Sendable (Result, Value) -> Result
  ) -> Signal<Result, Failure> {
    AnonymousSignal(nameSource: derivedName("scan")) { observer in
      let accumulator = ObserverState(initial)
      return self.attach(
        .forwardingTerminal(to: observer) { value in
          let result = nextPartialResult(accumulator.value, value)
          accumulator.value = result
          return observer.sendNext(result)
        })
    }
  }

  /// Sends the running result of combining each value, and its index, into an accumulator that starts at
  /// `initial`.
  ///
  /// As ``scan(_:_:)``, with the 0-based index of each value in its subscription passed as well.
  ///
  /// ```swift
  /// let runningMean = scores.scan(0.0, withIndex: { mean, score, index in
  ///   mean + (Double(score) - mean) / Double(index + 1)
  /// })  // 2, 4, 9 -> 2.0, 3.0, 5.0
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The accumulator before the first value.
  ///   - nextPartialResult: Combines the accumulator with a value and its index.
  /// - Returns: A signal of every intermediate result.
  /// - Note: ReactiveCocoa 2.5 `-scanWithStart:reduceWithIndex:`.
  @inlinable
  public func scan<Result: Sendable>(
    _ initial: Result, withIndex nextPartialResult: @escaping @Sendable (Result, Value, Int) -> Result
  ) -> Signal<Result, Failure> {
    AnonymousSignal(nameSource: derivedName("scan(_:withIndex:)")) { observer in
      let state = ObserverState((accumulator: initial, index: 0))
      return self.attach(
        .forwardingTerminal(to: observer) { value in
          let result = nextPartialResult(state.value.accumulator, value, state.value.index)
          state.value = (result, state.value.index + 1)
          return observer.sendNext(result)
        })
    }
  }

  /// Sends, for each value, what `combine` makes of the previous value and this one.
  ///
  /// The first value is combined with `initial`. Each subscription starts again from `initial`. Failures
  /// and completion pass through; disposing the result disposes the upstream subscription.
  ///
  /// ```swift
  /// let gains = scores.combinePrevious(0) { previous, current in current - previous }  // 3, 5, 4 -> 3, 2, -1
  /// ```
  ///
  /// - Parameters:
  ///   - initial: Stands in for the previous value of the first value.
  ///   - combine: Called with the previous value and the current one.
  /// - Returns: A signal of the combined results.
  /// - Note: ReactiveCocoa 2.5 `-combinePreviousWithStart:reduce:`.
  @inlinable
  public func combinePrevious<Result: Sendable>(
    _ initial: Value, _ combine: @escaping @Sendable (Value, Value) -> Result
  ) -> Signal<Result, Failure> {
    AnonymousSignal(nameSource: derivedName("combinePrevious")) { observer in
      let previous = ObserverState(initial)
      return self.attach(
        .forwardingTerminal(to: observer) { value in
          let last = previous.value
          previous.value = value
          return observer.sendNext(combine(last, value))
        })
    }
  }
}
