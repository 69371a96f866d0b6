// Boolean operators: not, and, or. Plain forwarding: no allocation and no lock per event.
//
// RAC's `-and` and `-or` reduce each tuple of Booleans that `+combineLatest:` sends; here they reduce each
// array of Booleans, the shape a combination of a collection of Boolean signals takes. Combining the signals
// themselves belongs to the combining operators.

extension Signal where Value == Bool {
  /// Inverts each Boolean.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription.
  ///
  /// ```swift
  /// let isIdle = isLoading.not()
  /// ```
  ///
  /// - Returns: A signal of the negated values.
  /// - Note: ReactiveCocoa 2.5 `-not`; its assertion that every value is a Boolean `NSNumber` is the type
  ///   system's job here.
  @inlinable
  public func not() -> Signal<Bool, Failure> {
    AnonymousSignal(nameSource: derivedName("not()")) { observer in
      self.attach(.forwardingTerminal(to: observer) { value in observer.sendNext(!value) })
    }
  }
}

extension Signal where Value == [Bool] {
  /// Sends, for each array of Booleans, whether all of them are `true`.
  ///
  /// An empty array gives `true`. Failures and completion pass through; disposing the result disposes the
  /// upstream subscription.
  ///
  /// ```swift
  /// let canSubmit = Signal.combineLatest([formIsValid, accepted]).and()  // [true, false] -> false
  /// ```
  ///
  /// - Returns: A signal of the conjunctions.
  /// - Note: ReactiveCocoa 2.5 `-and`, on arrays instead of `RACTuple`s. RAC asserted that a tuple was not
  ///   empty (and, with assertions off, answered `YES`); an empty array is the identity here, with no
  ///   assertion.
  @inlinable
  public func and() -> Signal<Bool, Failure> {
    AnonymousSignal(nameSource: derivedName("and()")) { observer in
      self.attach(carryingDemandOf: observer) { event in
        switch event {
        case .next(let values): return observer(.next(!values.contains(false)))
        case .error(let error): return observer(.error(error))
        case .completed: return observer(.completed)
        }
      }
    }
  }

  /// Sends, for each array of Booleans, whether any of them is `true`.
  ///
  /// An empty array gives `false`. Failures and completion pass through; disposing the result disposes the
  /// upstream subscription.
  ///
  /// ```swift
  /// let isBusy = Signal.combineLatest([isLoading, isSaving]).or()  // [true, false] -> true
  /// ```
  ///
  /// - Returns: A signal of the disjunctions.
  /// - Note: ReactiveCocoa 2.5 `-or`, on arrays instead of `RACTuple`s. RAC asserted that a tuple was not
  ///   empty (and, with assertions off, answered `NO`); an empty array is the identity here, with no
  ///   assertion.
  @inlinable
  public func or() -> Signal<Bool, Failure> {
    AnonymousSignal(nameSource: derivedName("or()")) { observer in
      self.attach(carryingDemandOf: observer) { event in
        switch event {
        case .next(let values): return observer(.next(values.contains(true)))
        case .error(let error): return observer(.error(error))
        case .completed: return observer(.completed)
        }
      }
    }
  }
}
