/// A subject that has a current value: each new subscriber receives it first, then the live values.
///
/// The current value is the initial one until something is sent. It behaves as a ``ReplaySubject`` of
/// capacity 1 that starts with a value: replay and live delivery are serialised, so a subscriber that joins
/// while other threads send receives the current value and then every later value once, in order. After a
/// terminal event, later subscribers receive the last value and then the terminal event. Subscribers attach on
/// the subscription scheduler, as in RAC; disposing a subscription removes the subscriber.
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
///   RAC also forgot that it had terminated. Here the current value always comes first, the terminal event is
///   remembered, and ``value`` reads the current value.
public final class BehaviorSubject<Value: Sendable, Failure: Error>: Signal<Value, Failure>, Subscriber,
  @unchecked Sendable
{
  // guarded by: immutability — `storage` is a `let` and guards its own state (see SubjectStorage.swift); the base
  // class stores only a `let`.
  @usableFromInline
  let storage: SubjectStorage<Value, Failure>

  /// Creates a behaviour subject whose current value is `value`.
  ///
  /// ```swift
  /// let isLoggedIn = BehaviorSubject<Bool, Never>(value: false)
  /// ```
  ///
  /// - Parameter value: The current value until another is sent.
  /// - Note: ReactiveCocoa 2.5 `+behaviorSubjectWithDefaultValue:`.
  public init(value: Value) {
    storage = SubjectStorage(capacity: 1, values: [value], schedulesReplay: true)
    super.init(name: "")
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

  /// The number of current subscribers.
  ///
  /// A subscriber counts from the moment it is attached until it is disposed, terminates or stops; handy in tests
  /// to check that a subscription was released.
  ///
  /// ```swift
  /// let volume = BehaviorSubject<Int, Never>(value: 5)
  /// let subscription = volume.subscribeNext { _ in }
  /// subscription.dispose()
  /// print(volume.subscriberCount)  // 0
  /// ```
  ///
  /// - Note: Not in ReactiveCocoa 2.5 `RACBehaviorSubject`, which kept its subscribers private.
  public var subscriberCount: Int {
    storage.subscriberCount
  }

  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    storage.attach(observer)
  }

  /// Sends `value` to every current subscriber, in subscription order, and makes it the current value.
  ///
  /// Ignored once the subject has terminated. Called from a subscriber's callback, the value is delivered after
  /// the value in progress has reached every subscriber; from another thread, it waits for that delivery.
  ///
  /// ```swift
  /// volume.sendNext(1)
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Note: ReactiveCocoa 2.5 `-[RACBehaviorSubject sendNext:]`.
  @inlinable
  public func sendNext(_ value: Value) {
    storage.send(.next(value))
  }

  /// Terminates the subject with `error`: every current subscriber receives it, later subscribers receive the last
  /// value, then it, later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// volume.sendError(error)
  /// ```
  ///
  /// - Parameter error: The failure.
  /// - Note: ReactiveCocoa 2.5 `-[RACBehaviorSubject sendError:]`, except that the subject remembers it terminated.
  @inlinable
  public func sendError(_ error: Failure) {
    storage.send(.error(error))
  }

  /// Terminates the subject with completion: every current subscriber receives it, later subscribers receive the last
  /// value, then it, later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// volume.sendCompleted()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-[RACBehaviorSubject sendCompleted]`, except that the subject remembers it terminated.
  @inlinable
  public func sendCompleted() {
    storage.send(.completed)
  }

  /// Keeps `disposable`, a subscription made with this subject as its subscriber, to dispose it when the
  /// subject terminates (at once if it already has).
  ///
  /// ``Signal/subscribe(_:)`` calls it; you rarely need to.
  ///
  /// ```swift
  /// source.subscribe(volume)  // disposed when volume terminates
  /// ```
  ///
  /// - Parameter disposable: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-[RACBehaviorSubject didSubscribeWithDisposable:]`.
  public func didSubscribe(with disposable: any Disposable) {
    storage.subscribed(with: disposable)
  }
}
