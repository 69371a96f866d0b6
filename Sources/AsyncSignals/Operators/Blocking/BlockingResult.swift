/// What a blocking wait on a signal ended with: a result, the signal's failure, or the timeout.
///
/// ```swift
/// switch numbers.toArray(timeout: .seconds(5)) {
/// case .success(let values): print(values)
/// case .failure(let error): print("failed:", error)
/// case .timedOut: print("no answer within 5 s")
/// }
/// ```
///
/// - Note: ReactiveCocoa 2.5 reported these outcomes through a return value plus `BOOL *success` and
///   `NSError **error` out-parameters, and had no timeout for `-first` or `-toArray`; this enum keeps the
///   typed failure and says when the wait timed out.
public enum BlockingResult<Success, Failure: Error> {
  /// The signal gave a result in time.
  ///
  /// ```swift
  /// if case .success(let values) = numbers.toArray(timeout: .seconds(5)) { print(values) }
  /// ```
  case success(Success)
  /// The signal failed in time.
  ///
  /// ```swift
  /// if case .failure(let error) = upload.waitUntilCompleted(timeout: .seconds(30)) { showError(error) }
  /// ```
  case failure(Failure)
  /// The signal did not decide the result within the timeout; its subscription was disposed.
  ///
  /// ```swift
  /// if case .timedOut = migration.waitUntilCompleted(timeout: .seconds(30)) { print("still migrating after 30 s") }
  /// ```
  case timedOut

  /// The result of ``success(_:)``, otherwise `nil`.
  ///
  /// ```swift
  /// let values = numbers.toArray(timeout: .seconds(1)).value  // [Int]?, nil on failure or timeout
  /// ```
  public var value: Success? {
    if case .success(let value) = self { return value }
    return nil
  }

  /// The failure of ``failure(_:)``, otherwise `nil`.
  ///
  /// ```swift
  /// if let error = upload.waitUntilCompleted(timeout: .seconds(30)).failure { print("failed:", error) }
  /// ```
  public var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }

  /// Whether the wait timed out.
  ///
  /// ```swift
  /// if request.first(timeout: .seconds(2)).isTimedOut { print("no answer within 2 s") }
  /// ```
  public var isTimedOut: Bool {
    if case .timedOut = self { return true }
    return false
  }

  /// The outcome as a `Result`, or `nil` if the wait timed out.
  ///
  /// ```swift
  /// let user = try users.first(timeout: .seconds(5)).result?.get()  // throws the typed failure
  /// ```
  public var result: Result<Success, Failure>? {
    switch self {
    case .success(let value): return .success(value)
    case .failure(let error): return .failure(error)
    case .timedOut: return nil
    }
  }
}

extension BlockingResult: Sendable where Success: Sendable {}
extension BlockingResult: Equatable where Success: Equatable, Failure: Equatable {}
extension BlockingResult: Hashable where Success: Hashable, Failure: Hashable {}
