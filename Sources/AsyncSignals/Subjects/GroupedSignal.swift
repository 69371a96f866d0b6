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
  private let storage = SubjectStorage<Value, Failure>(capacity: 0, schedulesReplay: false)

  /// The key shared by the values of this group.
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
  public var subscriberCount: Int {
    storage.subscriberCount
  }

  override func attach(_ observer: @escaping Observer<Value, Failure>) -> any Disposable {
    storage.attach(observer)
  }

  /// Sends `value` to every current subscriber of the group.
  ///
  /// - Parameter value: The value.
  public func sendNext(_ value: Value) {
    storage.send(.next(value))
  }

  /// Terminates the group with `error`.
  ///
  /// - Parameter error: The failure.
  public func sendError(_ error: Failure) {
    storage.send(.error(error))
  }

  /// Terminates the group with completion.
  public func sendCompleted() {
    storage.send(.completed)
  }

  /// Keeps `disposable`, a subscription made with this group as its subscriber, to dispose it when the group
  /// terminates (at once if it already has).
  ///
  /// - Parameter disposable: The subscription's disposable.
  public func didSubscribe(with disposable: any Disposable) {
    storage.subscribed(with: disposable)
  }
}
