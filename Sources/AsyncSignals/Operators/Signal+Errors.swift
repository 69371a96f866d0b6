// Operators about failures: catch, try, tryMap, ignoreValues, materialize, dematerialize, mapError and
// promoteError.
//
// `ignoreValues`, `mapError` and `promoteError` are plain forwarding. `try`, `tryMap` and `dematerialize` may
// end the result on a value; like `take`, they record that in an `ObserverState` box before they send, and
// answer `.stop` to anything the source sends afterwards.

extension Signal {
  /// On failure, continues with the signal that `handler` returns for the failure.
  ///
  /// Values and completion of this signal pass through. When it fails, `handler` is called with the failure
  /// (on the failing thread, before that failure's delivery returns) and its signal is subscribed; its events
  /// then make up the rest of the result, which can fail only with that signal's failure type. Disposing
  /// the result disposes whichever subscription is live.
  ///
  /// ```swift
  /// let data = download.catch { error in
  ///   error.code == .cancelled ? .empty : .error(error)  // a cancelled download just completes
  /// }
  /// ```
  ///
  /// - Parameter handler: Makes the signal to continue with; it may change the failure type (`Never` for a
  ///   result that cannot fail).
  /// - Returns: This signal, then, after a failure, the handler's signal.
  /// - Note: ReactiveCocoa 2.5 `-catch:`.
  @inlinable
  public func `catch`<NewFailure: Error>(
    _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
  ) -> Signal<Value, NewFailure> {
    `catch`(handler, nameSource: derivedName("catch"))
  }

  /// On failure, continues with `replacement`.
  ///
  /// As ``catch(_:)`` with a handler that always returns `replacement`.
  ///
  /// ```swift
  /// let user: Signal<String, Never> = fetchUser().catch(to: .return("guest"))  // "guest" if the fetch fails
  /// ```
  ///
  /// - Parameter replacement: The signal to continue with after a failure.
  /// - Returns: This signal, then, after a failure, `replacement`.
  /// - Note: ReactiveCocoa 2.5 `-catchTo:`.
  @inlinable
  public func `catch`<NewFailure: Error>(to replacement: Signal<Value, NewFailure>) -> Signal<Value, NewFailure> {
    `catch`({ _ in replacement }, nameSource: derivedName("catch(to: \(replacement))"))
  }

  @inlinable
  func `catch`<NewFailure: Error>(
    _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>, nameSource: SignalName
  ) -> Signal<Value, NewFailure> {
    AnonymousSignal(nameSource: nameSource) { observer in
      let subscriptions = CompoundDisposable()
      let first = self.attach(carryingDemandOf: observer) { event in
        guard !subscriptions.isDisposed else { return .stop }
        switch event {
        case .next(let value): return observer(.next(value))
        case .completed: return observer(.completed)
        case .error(let error):
          let replacement = handler(error)
          subscriptions.add(
            replacement.attach(carryingDemandOf: observer) { event in
              subscriptions.isDisposed ? .stop : observer(event)
            })
          return .stop
        }
      }
      subscriptions.add(first)
      return subscriptions
    }
  }

  /// Passes each value for which `body` returns normally; fails with the error `body` throws.
  ///
  /// `body` throws the signal's own failure type, so the closure must say so: `{ (value) throws(MyError) in
  /// … }` (Swift does not yet infer a closure's thrown type from its context). After a throw the result
  /// fails at once and disposes the upstream subscription. Failures and completion pass through.
  ///
  /// ```swift
  /// let valid = drafts.try { (draft) throws(StoreError) in try validate(draft) }  // fails at the first invalid one
  /// ```
  ///
  /// - Parameter body: Checks a value, or throws to fail the result.
  /// - Returns: A signal of the values that passed.
  /// - Note: ReactiveCocoa 2.5 `-try:`, whose block returned `NO` and set an `NSError **`; here it throws a
  ///   typed error.
  @inlinable
  public func `try`(_ body: @escaping @Sendable (Value) throws(Failure) -> Void) -> Signal<Value, Failure> {
    tryMap(nameSource: derivedName("try")) { (value) throws(Failure) -> Value in
      try body(value)
      return value
    }
  }

  /// Transforms each value with `transform`; fails with the error it throws.
  ///
  /// `transform` throws the signal's own failure type, so the closure must say so: `{ (value) throws(MyError)
  /// in … }` (Swift does not yet infer a closure's thrown type from its context). After a throw the result
  /// fails at once and disposes the upstream subscription. Failures and completion pass through.
  ///
  /// ```swift
  /// let users = payloads.tryMap { (data) throws(APIError) -> User in try User(decoding: data) }
  /// ```
  ///
  /// - Parameter transform: Transforms a value, or throws to fail the result.
  /// - Returns: A signal of the transformed values.
  /// - Note: ReactiveCocoa 2.5 `-tryMap:`, whose block returned `nil` and set an `NSError **`; here it throws
  ///   a typed error.
  @inlinable
  public func tryMap<NewValue: Sendable>(
    _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
  ) -> Signal<NewValue, Failure> {
    tryMap(nameSource: derivedName("tryMap"), transform)
  }

  @inlinable
  func tryMap<NewValue: Sendable>(
    nameSource: SignalName, _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
  ) -> Signal<NewValue, Failure> {
    AnonymousSignal(nameSource: nameSource) { observer in
      let finished = ObserverState(false)
      return self.attach(carryingDemandOf: observer) { event in
        guard !finished.value else { return .stop }
        switch event {
        case .next(let value):
          let transformed: NewValue
          do throws(Failure) {
            transformed = try transform(value)
          } catch {
            finished.value = true
            _ = observer(.error(error))
            return .stop
          }
          return observer(.next(transformed))
        case .error(let error):
          finished.value = true
          return observer(.error(error))
        case .completed:
          finished.value = true
          return observer(.completed)
        }
      }
    }
  }

  /// Drops every value, keeping the failure or completion.
  ///
  /// Disposing the result disposes the upstream subscription. Plain forwarding: no allocation and no lock
  /// per event. The value type is kept, so that the result can be concatenated with signals of that type.
  ///
  /// ```swift
  /// let done = fetchStatus.ignoreValues().concat(.return("done"))  // only "done", once the fetch has completed
  /// ```
  ///
  /// - Returns: A signal with only the terminal event.
  /// - Note: ReactiveCocoa 2.5 `-ignoreValues`.
  @inlinable
  public func ignoreValues() -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("ignoreValues()")) { observer in
      self.attach(.passing(to: observer) { _ in false })
    }
  }

  /// Sends every event as a value, then completes — also after a failure.
  ///
  /// The result cannot fail: a failure becomes an `.error` value, followed by completion. Disposing the
  /// result disposes the upstream subscription.
  ///
  /// ```swift
  /// upload.materialize().subscribeNext { event in print(event) }  // next(…), …, error(…) or completed
  /// ```
  ///
  /// - Returns: A signal of events.
  /// - Note: ReactiveCocoa 2.5 `-materialize` (`RACEvent` is ``Event``).
  @inlinable
  public func materialize() -> Signal<Event<Value, Failure>, Never> {
    AnonymousSignal(nameSource: derivedName("materialize()")) { observer in
      self.attach(carryingDemandOf: observer) { event in
        let flow = observer(.next(event))
        guard event.isTerminating else { return flow }
        if flow == .proceed { _ = observer(.completed) }
        return .stop
      }
    }
  }

  /// Transforms each failure with `transform`.
  ///
  /// Values and completion pass through; disposing the result disposes the upstream subscription. Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// let loaded = download.mapError { AppError.network($0) }
  /// ```
  ///
  /// - Parameter transform: Applied to the failure.
  /// - Returns: A signal that fails with the transformed failure.
  /// - Note: No ReactiveCocoa 2.5 counterpart: `NSError` needed no conversion. Swift's typed failures do, to
  ///   combine signals that fail differently.
  @inlinable
  public func mapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure
  ) -> Signal<Value, NewFailure> {
    AnonymousSignal(nameSource: derivedName("mapError")) { observer in
      self.attach(carryingDemandOf: observer) { event in
        switch event {
        case .next(let value): return observer(.next(value))
        case .error(let error): return observer(.error(transform(error)))
        case .completed: return observer(.completed)
        }
      }
    }
  }
}

extension Signal where Failure == Never {
  /// The same signal, typed as one that can fail with `NewFailure`.
  ///
  /// Nothing changes at run time: the result never fails. Use it to combine a signal that cannot fail with
  /// ones that can (`concat`, `zip`, `flattenMap`, `catch` handlers all need one failure type). Plain
  /// forwarding: no allocation and no lock per event.
  ///
  /// ```swift
  /// let status = Signal<String, Never>.return("loading").promoteError(to: APIError.self).concat(fetchStatus)
  /// ```
  ///
  /// - Parameter newFailure: The failure type of the result; inferred when the context gives it.
  /// - Returns: This signal with the failure type `NewFailure`.
  /// - Note: No ReactiveCocoa 2.5 counterpart: every RAC signal could fail with an `NSError`. The name is
  ///   ReactiveSwift's (RAC's successor): it promotes `Never` to a real failure type, and unlike Combine's
  ///   `setFailureType(to:)` it cannot be read as replacing a failure type that is already there.
  @inlinable
  public func promoteError<NewFailure: Error>(
    to newFailure: NewFailure.Type = NewFailure.self
  ) -> Signal<Value, NewFailure> {
    AnonymousSignal(nameSource: derivedName("promoteError(to: \(NewFailure.self))")) { observer in
      self.attach(carryingDemandOf: observer) { event in
        switch event {
        case .next(let value): return observer(.next(value))
        case .completed: return observer(.completed)
        }
      }
    }
  }

  /// Turns values that are events back into events: the inverse of ``Signal/materialize()``.
  ///
  /// A `.next` value is sent as a value; an `.error` or `.completed` value ends the result with that event
  /// and disposes the upstream subscription. The result also completes when this signal completes.
  ///
  /// ```swift
  /// let replayed = recordedEvents.dematerialize()  // Signal<Event<Int, APIError>, Never> -> Signal<Int, APIError>
  /// ```
  ///
  /// - Returns: A signal of the events' values, ending as the events say.
  /// - Note: ReactiveCocoa 2.5 `-dematerialize`. Available on signals of events that cannot fail themselves,
  ///   such as the results of ``Signal/materialize()``.
  @inlinable
  public func dematerialize<EventValue: Sendable, EventFailure: Error>() -> Signal<EventValue, EventFailure>
  where Value == Event<EventValue, EventFailure> {
    AnonymousSignal(nameSource: derivedName("dematerialize()")) { observer in
      let finished = ObserverState(false)
      return self.attach(carryingDemandOf: observer) { event in
        guard !finished.value else { return .stop }
        switch event {
        case .next(let inner):
          guard inner.isTerminating else { return observer(inner) }
          finished.value = true
          _ = observer(inner)
          return .stop
        case .completed:
          finished.value = true
          return observer(.completed)
        }
      }
    }
  }
}
