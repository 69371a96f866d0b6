/// The failure of a signal that did not terminate in time: what `timeout(_:on:)` fails with.
///
/// ```swift
/// location.take(1).timeout(.seconds(5), on: .main).subscribeError { (error: TimeoutError) in print(error) }
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACSignalErrorTimedOut` in `RACSignalErrorDomain`.
public struct TimeoutError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Creates the timeout failure.
  ///
  /// ```swift
  /// let timedOut = Signal<Data, TimeoutError>.error(TimeoutError())
  /// ```
  @inlinable
  public init() {}

  /// "The signal did not terminate in time."
  ///
  /// ```swift
  /// print(TimeoutError())  // The signal did not terminate in time.
  /// ```
  @inlinable
  public var description: String { "The signal did not terminate in time." }
}
