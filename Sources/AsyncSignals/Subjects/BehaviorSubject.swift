/// A subject that has a current value: each new subscriber receives it first, then the live values.
///
/// The current value is the initial one until something is sent. It behaves as a ``ReplaySubject`` of
/// capacity 1 that starts with a value: replay and live delivery are serialised, so a subscriber that joins
/// while other threads send receives the current value and then every later value once, in order. After a
/// terminal event, later subscribers receive the last value and then the terminal event. Subscribers attach at
/// once, on the subscribing thread: the current value has arrived by the time `subscribe` returns (guarantee 5).
/// Disposing a subscription removes the subscriber.
///
/// ```swift
/// let volume = BehaviorSubject<Int, Never>(value: 5)
/// volume.subscribeNext { print($0) }  // 5
/// volume.sendNext(7)                  // 7
/// print(volume.value)                 // 7
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACBehaviorSubject` (`+behaviorSubjectWithDefaultValue:`). RAC subscribed first and
///   sent the current value in a separately scheduled block, so a value sent meanwhile could arrive before it;
///   RAC also forgot that it had terminated. Here the current value always comes first, at once, the terminal event is
///   remembered, and ``value`` reads the current value.
public final class BehaviorSubject<Value: Sendable, Failure: Error>: ReplaySubject<Value, Failure>, @unchecked Sendable {
  // guarded by: `Subject` (this subclass adds no stored properties).

  /// Creates a behaviour subject whose current value is `value`.
  ///
  /// ```swift
  /// let isLoggedIn = BehaviorSubject<Bool, Never>(value: false)
  /// ```
  ///
  /// - Parameter value: The current value until another is sent.
  /// - Note: ReactiveCocoa 2.5 `+behaviorSubjectWithDefaultValue:`.
  public init(value: Value) {
    super.init(replayStorage: SubjectStorage(capacity: 1, values: [value]))
  }

  /// The current value: the last one sent, or the initial one.
  ///
  /// ```swift
  /// let volume = BehaviorSubject<Int, Never>(value: 5)
  /// volume.sendNext(7)
  /// print(volume.value)  // 7
  /// ```
  ///
  /// - Note: RAC kept it private (`currentValue`).
  public var value: Value {
    guard let value = storage.latestValue else {
      preconditionFailure("BehaviorSubject.value: the subject has no current value")
    }
    return value
  }
}
