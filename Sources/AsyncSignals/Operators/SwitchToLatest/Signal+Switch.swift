extension Signal {
  /// Follows the signal of `cases` that matches the latest key `key` sends, or `defaultSignal`.
  ///
  /// ``switchToLatest()`` over `cases[key] ?? defaultSignal` for each key: a new key disposes the signal
  /// followed so far. The result completes when `key` and the signal followed have completed, and fails with
  /// the first failure of either.
  ///
  /// ```swift
  /// let content = Signal.switch(tab, cases: [.news: updates, .mail: messages], default: .empty)
  /// ```
  ///
  /// - Parameters:
  ///   - key: The signal of keys that choose the case.
  ///   - cases: A signal for each key. For optional keys, a `nil` key matches a `nil` case.
  ///   - defaultSignal: The signal followed when no case matches.
  /// - Returns: The values of the signal chosen by the latest key.
  /// - Note: ReactiveCocoa 2.5 `+switch:cases:default:` with a default signal. A `nil` key matches a `nil`
  ///   case through `Optional`'s own `Hashable`, where RAC needs `RACTupleNil`.
  @inlinable
  public static func `switch`<Key: Hashable & Sendable>(
    _ key: Signal<Key, Failure>, cases: [Key: Signal<Value, Failure>], default defaultSignal: Signal<Value, Failure>
  ) -> Signal<Value, Failure> {
    key.map { key in cases[key] ?? defaultSignal }.switchToLatest()
  }

  /// Follows the signal of `cases` that matches the latest key `key` sends; a key with no case fails.
  ///
  /// ``switchToLatest()`` over `cases[key]` for each key: a new key disposes the signal followed so far, and a
  /// key with no case fails the result with `unmatched(key)`. The result completes when `key` and the signal
  /// followed have completed, and fails with the first failure.
  ///
  /// ```swift
  /// let content = Signal.switch(route, cases: screens, unmatched: { AppError.unknownRoute($0) })
  /// ```
  ///
  /// - Parameters:
  ///   - key: The signal of keys that choose the case.
  ///   - cases: A signal for each key. For optional keys, a `nil` key matches a `nil` case.
  ///   - unmatched: Makes the failure for a key with no case.
  /// - Returns: The values of the signal chosen by the latest key.
  /// - Note: ReactiveCocoa 2.5 `+switch:cases:default:` with a `nil` default, which fails with
  ///   `RACSignalErrorNoMatchingCase`. With typed failures the caller supplies that failure: the signal's
  ///   `Failure` type is the caller's, so the library cannot make one.
  @inlinable
  public static func `switch`<Key: Hashable & Sendable>(
    _ key: Signal<Key, Failure>, cases: [Key: Signal<Value, Failure>],
    unmatched: @escaping @Sendable (Key) -> Failure
  ) -> Signal<Value, Failure> {
    key.map { key in cases[key] ?? .error(unmatched(key)) }.switchToLatest()
  }

  /// Follows `trueSignal` while `condition` last sent `true`, and `falseSignal` while it last sent `false`.
  ///
  /// ``switchToLatest()`` over the two signals: each value of `condition` disposes the signal followed so far
  /// and subscribes to the chosen one anew, even when the value repeats. The result completes when `condition`
  /// and the signal followed have completed, and fails with the first failure of either.
  ///
  /// ```swift
  /// let status = Signal.if(isOnline, then: updates, else: .return("offline"))
  /// ```
  ///
  /// - Parameters:
  ///   - condition: The signal of `Bool`s that chooses.
  ///   - trueSignal: The signal followed after `true`.
  ///   - falseSignal: The signal followed after `false`.
  /// - Returns: The values of the chosen signal.
  /// - Note: ReactiveCocoa 2.5 `+if:then:else:`.
  @inlinable
  public static func `if`(
    _ condition: Signal<Bool, Failure>, then trueSignal: Signal<Value, Failure>,
    else falseSignal: Signal<Value, Failure>
  ) -> Signal<Value, Failure> {
    condition.map { isTrue in isTrue ? trueSignal : falseSignal }.switchToLatest()
  }
}
