import AsyncSignals

// Awaiting a signal's result. Each function subscribes in the caller's isolation (on the main actor a
// signal's subscribe body therefore runs at once, guarantee 5), suspends the caller until the result is known,
// and disposes the subscription when it returns. Cancelling the awaiting task disposes the subscription at
// once and returns as if the signal had completed at that moment: the values that arrived so far make the
// result, and nothing is thrown (the failure is the signal's typed one, never `CancellationError`); check
// `Task.isCancelled` to tell the two apart. A task already cancelled does not subscribe.

extension Signal {
  /// Suspends until the signal's first value and returns it, disposing the subscription at once.
  ///
  /// Returns `nil` if the signal completes without a value, or if the awaiting task is cancelled first;
  /// throws the signal's failure if it fails first.
  ///
  /// ```swift
  /// let user = try await users.first()  // String?; throws the signal's typed failure, APIError
  /// ```
  ///
  /// - Parameter isolation: The caller's actor, which the call does not leave; filled in for you.
  /// - Returns: The first value, or `nil`.
  /// - Throws: The signal's failure, if it fails before sending a value.
  /// - Note: ReactiveCocoa 2.5 `-first` / `-firstOrDefault:success:error:` and
  ///   `-asynchronousFirstOrDefault:success:error:`; it suspends the task instead of blocking the thread.
  public func first(isolation: isolated (any Actor)? = #isolation) async throws(Failure) -> Value? {
    try await AwaitStorage<Value, Failure, Value?>(initial: nil) { first, value in
      first = value
      return true
    }.run(self, isolation: isolation).get()
  }

  /// Suspends until the signal completes and returns its last value.
  ///
  /// Returns `nil` if the signal completes without a value; if the awaiting task is cancelled, returns the
  /// latest value received so far (or `nil`). Throws the signal's failure if it fails. Keeps only the
  /// latest value, never a buffer.
  ///
  /// ```swift
  /// let finalProgress = await progress.last()  // Double?
  /// ```
  ///
  /// - Parameter isolation: The caller's actor, which the call does not leave; filled in for you.
  /// - Returns: The last value, or `nil`.
  /// - Throws: The signal's failure.
  /// - Note: ReactiveCocoa 2.5 `[[signal takeLast:1] first]`; it suspends instead of blocking.
  public func last(isolation: isolated (any Actor)? = #isolation) async throws(Failure) -> Value? {
    try await AwaitStorage<Value, Failure, Value?>(initial: nil) { last, value in
      last = value
      return false
    }.run(self, isolation: isolation).get()
  }

  /// Suspends until the signal completes and returns all its values, in order.
  ///
  /// Throws the signal's failure if it fails (the values received are discarded). If the awaiting task is
  /// cancelled, returns the values received so far.
  ///
  /// ```swift
  /// let rows: [Row] = try await database.query("SELECT …").toArray()
  /// ```
  ///
  /// - Parameter isolation: The caller's actor, which the call does not leave; filled in for you.
  /// - Returns: Every value, in the order sent.
  /// - Throws: The signal's failure.
  /// - Note: ReactiveCocoa 2.5 `-toArray` (and `-collect` followed by `-first`); it suspends instead of
  ///   blocking. Not named `collect()`: that is RAC's `-collect` operator, which returns a signal of one array,
  ///   and in async code Swift would pick this method over it.
  public func toArray(isolation: isolated (any Actor)? = #isolation) async throws(Failure) -> [Value] {
    try await AwaitStorage<Value, Failure, [Value]>(initial: []) { values, value in
      values.append(value)
      return false
    }.run(self, isolation: isolation).get()
  }

  /// Suspends until the signal completes, ignoring its values.
  ///
  /// Throws the signal's failure if it fails. If the awaiting task is cancelled, returns at once.
  ///
  /// ```swift
  /// try await migration.waitUntilCompleted()
  /// print("migrated")
  /// ```
  ///
  /// - Parameter isolation: The caller's actor, which the call does not leave; filled in for you.
  /// - Throws: The signal's failure.
  /// - Note: ReactiveCocoa 2.5 `-waitUntilCompleted:` and `-asynchronouslyWaitUntilCompleted:`; it suspends
  ///   instead of blocking, and the failure is thrown instead of returned through a pointer.
  public func waitUntilCompleted(isolation: isolated (any Actor)? = #isolation) async throws(Failure) {
    try await AwaitStorage<Value, Failure, Void>(initial: ()) { _, _ in false }
      .run(self, isolation: isolation).get()
  }

  /// Calls `body` with each value, in order, in the caller's isolation, and returns when the signal
  /// completes.
  ///
  /// `body` may suspend; values sent meanwhile wait in an unbounded buffer (for another policy, loop over
  /// ``values(bufferingPolicy:onDrop:file:line:)`` instead). Throws the signal's failure, after the values sent before
  /// it. If the awaiting task is cancelled, the subscription is disposed and `forEach` returns after the
  /// call of `body` in progress. To stop early on a condition, use a `for await` loop over ``values`` and
  /// `break`.
  ///
  /// ```swift
  /// @MainActor func follow(_ messages: Signal<Message, Never>) async {
  ///   var inbox: [Message] = []
  ///   await messages.forEach { message in
  ///     inbox.append(message)  // on the main actor, one value at a time
  ///   }
  ///   print("the conversation ended with", inbox.count, "messages")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The caller's actor, which `body` runs on; filled in for you.
  ///   - body: Called with each value.
  /// - Throws: The signal's failure.
  /// - Note: `for try await value in signal.values { await body(value) }`. ReactiveCocoa 2.5
  ///   `-subscribeNext:` awaited until the end.
  public func forEach(
    isolation: isolated (any Actor)? = #isolation, _ body: (Value) async -> Void
  ) async throws(Failure) {
    var iterator = values.makeAsyncIterator()
    while let value = try await iterator.next(isolation: isolation) {
      await body(value)
    }
  }
}
