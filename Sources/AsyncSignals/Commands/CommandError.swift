/// Why an execution of a ``Command`` failed: the command was not enabled, or its work failed.
///
/// ```swift
/// save.execute(document).subscribeError { error in
///   switch error {
///   case .notEnabled: print("already saving")
///   case .failed(let failure): print("save failed:", failure)
///   }
/// }
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACCommandErrorDomain` with `RACCommandErrorNotEnabled` (whose `userInfo` held the
///   command under `RACUnderlyingCommandErrorKey`); RAC sent the work's own `NSError` unchanged. With typed
///   failures the two cases are told apart by this enum, and the work's failure is wrapped in ``failed(_:)``.
public enum CommandError<Failure: Error>: Error {
  /// The command was not enabled when ``Command/execute(_:)`` was called, so nothing ran.
  ///
  /// ```swift
  /// save.execute(document).subscribeError { error in
  ///   if case .notEnabled = error { print("already saving") }  // nothing ran
  /// }
  /// ```
  case notEnabled
  /// The work of the execution failed.
  ///
  /// ```swift
  /// save.execute(document).subscribeError { error in
  ///   if case .failed(let failure) = error { showError(failure) }  // also sent on `save.errors`
  /// }
  /// ```
  case failed(Failure)

  /// The work's failure, or `nil` for ``notEnabled``.
  ///
  /// ```swift
  /// save.execute(document).subscribeError { error in
  ///   if let failure = error.failure { print("save failed:", failure) }  // nil for .notEnabled
  /// }
  /// ```
  ///
  /// - Note: RAC's work errors were the `NSError` itself; not-enabled was told apart by its domain and code.
  public var failure: Failure? {
    if case .failed(let failure) = self { return failure }
    return nil
  }
}

extension CommandError: Equatable where Failure: Equatable {}
