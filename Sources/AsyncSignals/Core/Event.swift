/// One event of a signal: a value, a failure, or completion.
///
/// A signal sends any number of `next` events followed by at most one terminating event, `error` or
/// `completed` (guarantee 2).
///
/// ```swift
/// let events: [Event<Int, Never>] = [.next(1), .next(2), .completed]
/// print(events.compactMap(\.value))  // [1, 2]
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACEvent` (`+eventWithValue:`, `+eventWithError:`, `+completedEvent`,
///   `eventType`, `finished`, `value`, `error`; the last is ``failure`` here, since `error` names the case).
///   The failure is typed; `Never` means the signal cannot fail.
@frozen
public enum Event<Value, Failure: Error> {
  /// A value.
  ///
  /// ```swift
  /// search.materialize().subscribeNext { event in
  ///   if case .next(let results) = event { print(results.count, "results") }
  /// }
  /// ```
  case next(Value)
  /// A failure; terminates the signal.
  ///
  /// ```swift
  /// download.materialize().subscribeNext { event in
  ///   if case .error(let error) = event { print("download failed:", error.code) }
  /// }
  /// ```
  case error(Failure)
  /// Successful completion; terminates the signal.
  ///
  /// ```swift
  /// subject.send(.completed)  // as subject.sendCompleted()
  /// ```
  case completed

  /// Whether this is `error` or `completed`. RAC calls this `finished`.
  ///
  /// ```swift
  /// Event<Int, Never>.completed.isTerminating  // true
  /// ```
  @inlinable
  public var isTerminating: Bool {
    if case .next = self { return false }
    return true
  }

  /// Whether this is `completed`.
  ///
  /// ```swift
  /// Event<Int, Never>.completed.isCompleted  // true
  /// ```
  @inlinable
  public var isCompleted: Bool {
    if case .completed = self { return true }
    return false
  }

  /// The value of a `next` event, otherwise `nil`.
  ///
  /// ```swift
  /// Event<Int, Never>.next(3).value  // 3
  /// ```
  @inlinable
  public var value: Value? {
    if case .next(let value) = self { return value }
    return nil
  }

  /// The failure of an `error` event, otherwise `nil`. (Not `error`, which would clash with the case.)
  ///
  /// ```swift
  /// Event<Int, URLError>.error(URLError(.timedOut)).failure?.code  // .timedOut
  /// ```
  @inlinable
  public var failure: Failure? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// The same event with its value transformed; terminating events are carried over.
  ///
  /// ```swift
  /// Event<Int, Never>.next(2).map { $0 * 10 }  // .next(20)
  /// ```
  ///
  /// - Parameter transform: Applied to the value of a `next` event.
  @inlinable
  public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Event<NewValue, Failure> {
    switch self {
    case .next(let value): return .next(try transform(value))
    case .error(let error): return .error(error)
    case .completed: return .completed
    }
  }

  /// The same event with its failure transformed; values and completion are carried over.
  ///
  /// ```swift
  /// Event<Int, URLError>.error(URLError(.timedOut)).mapError { AppError.network($0) }
  /// ```
  ///
  /// - Parameter transform: Applied to the failure of an `error` event.
  @inlinable
  public func mapError<NewFailure>(_ transform: (Failure) -> NewFailure) -> Event<Value, NewFailure> {
    switch self {
    case .next(let value): return .next(value)
    case .error(let error): return .error(transform(error))
    case .completed: return .completed
    }
  }
}

extension Event: Sendable where Value: Sendable {}
extension Event: Equatable where Value: Equatable, Failure: Equatable {}
extension Event: Hashable where Value: Hashable, Failure: Hashable {}

extension Event: CustomStringConvertible {
  /// `next(value)`, `error(failure)` or `completed`.
  ///
  /// ```swift
  /// print(Event<Int, Never>.next(1))      // next(1)
  /// print(Event<Int, Never>.completed)    // completed
  /// ```
  public var description: String {
    switch self {
    case .next(let value): return "next(\(value))"
    case .error(let error): return "error(\(error))"
    case .completed: return "completed"
    }
  }
}
