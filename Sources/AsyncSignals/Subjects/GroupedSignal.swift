/// A subject that carries the key of a group: what ``Signal/groupBy(_:)`` sends for each new key.
///
/// It behaves as a ``Subject`` (no replay; remembers its terminal event). `groupBy` sends it the values of its
/// group and ends it when the source ends.
///
/// ```swift
/// words.groupBy { $0.first! }.subscribeNext { group in
///   group.subscribeNext { print(group.key, $0) }
/// }
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACGroupedSignal` (`key`, `+signalWithKey:`).
public final class GroupedSignal<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Signal<Value, Failure>,
  Subscriber, @unchecked Sendable
{
  // guarded by: immutability — both properties are `let`s; `storage` guards its own state.
  @usableFromInline
  let storage = SubjectStorage<Value, Failure>(capacity: 0, schedulesReplay: false)

  /// The key shared by the values of this group.
  ///
  /// ```swift
  /// words.groupBy { $0.count }.subscribeNext { group in print("words of length", group.key) }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `key`.
  public let key: Key

  /// Creates a grouped subject for `key`.
  ///
  /// ```swift
  /// let evens = GroupedSignal<Bool, Int, Never>(key: true)
  /// ```
  ///
  /// - Parameter key: The group's key.
  /// - Note: ReactiveCocoa 2.5 `+signalWithKey:`.
  public init(key: Key) {
    self.key = key
    super.init(name: "")
  }

  /// The number of current subscribers.
  ///
  /// A subscriber counts from the moment it is attached until it is disposed, terminates or stops; handy in tests
  /// to check that a subscription was released.
  ///
  /// ```swift
  /// let group = GroupedSignal<String, Int, Never>(key: "a")
  /// let subscription = group.subscribeNext { _ in }
  /// subscription.dispose()
  /// print(group.subscriberCount)  // 0
  /// ```
  ///
  /// - Note: Not in ReactiveCocoa 2.5 `RACGroupedSignal`, which kept its subscribers private.
  public var subscriberCount: Int {
    storage.subscriberCount
  }

  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    storage.attach(observer)
  }

  /// Sends `value` to every current subscriber, in subscription order.
  ///
  /// Ignored once the subject has terminated. Called from a subscriber's callback, the value is delivered after
  /// the value in progress has reached every subscriber; from another thread, it waits for that delivery.
  ///
  /// ```swift
  /// group.sendNext(1)
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Note: ReactiveCocoa 2.5 `-[RACGroupedSignal sendNext:]`.
  @inlinable
  public func sendNext(_ value: Value) {
    storage.send(.next(value))
  }

  /// Terminates the subject with `error`: every current subscriber receives it, later subscribers receive it at once,
  /// later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// group.sendError(error)
  /// ```
  ///
  /// - Parameter error: The failure.
  /// - Note: ReactiveCocoa 2.5 `-[RACGroupedSignal sendError:]`, except that the subject remembers it terminated.
  @inlinable
  public func sendError(_ error: Failure) {
    storage.send(.error(error))
  }

  /// Terminates the subject with completion: every current subscriber receives it, later subscribers receive it at
  /// once, later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// group.sendCompleted()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-[RACGroupedSignal sendCompleted]`, except that the subject remembers it terminated.
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
  /// source.subscribe(group)  // disposed when group terminates
  /// ```
  ///
  /// - Parameter disposable: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-[RACGroupedSignal didSubscribeWithDisposable:]`.
  public func didSubscribe(with disposable: any Disposable) {
    storage.subscribed(with: disposable)
  }
}
