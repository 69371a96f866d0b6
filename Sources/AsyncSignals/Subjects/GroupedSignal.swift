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
public final class GroupedSignal<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Subject<Value, Failure>,
  @unchecked Sendable
{
  // guarded by: immutability — `key` is a `let`; `Subject` guards the rest.

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
    super.init(storage: SubjectStorage(capacity: 0))
  }
}
