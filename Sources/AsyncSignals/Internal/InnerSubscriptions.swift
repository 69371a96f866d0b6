/// One inner subscription of an operator that subscribes to several signals over time (bind, merge,
/// flatten, switchToLatest): its place in the operator's set and its disposable, once `attach` has returned.
///
/// Not final: `InnerRecord` adds the operator's storage, so that one object serves both.
@usableFromInline
class InnerSubscription: @unchecked Sendable {
  // guarded by: the state lock of the operator that owns it; only `InnerSubscriptions` touches the fields.
  // No dynamic exclusivity check: the lock already rules out overlapping accesses (see `ObserverState`).
  @exclusivity(unchecked) @usableFromInline final var index = -1
  @exclusivity(unchecked) @usableFromInline final var disposable: (any Disposable)?

  @inlinable
  init() {}
}

/// An inner subscription that knows the storage of the operator it belongs to (merge's, bind's), so that the
/// inner signal's observer captures this record alone: a closure capturing one reference needs no context of its
/// own, so each inner subscription costs one allocation, this record.
///
/// The record and the storage hold each other (the storage keeps its live inner subscriptions) until the inner
/// signal ends or the operator finishes, as the observer's capture of the storage did before.
@usableFromInline
final class InnerRecord<Storage: AnyObject & Sendable>: InnerSubscription, @unchecked Sendable {
  // guarded by: `InnerSubscription`'s guard (the owner's state lock) for the inherited fields; `storage` is a
  // `let`.
  @usableFromInline let storage: Storage

  @inlinable
  init(storage: Storage) {
    self.storage = storage
    super.init()
  }
}

/// The live inner subscriptions of an operator: O(1) insertion and removal (each member knows its index).
/// Kept inside the operator's lock.
@usableFromInline
struct InnerSubscriptions: Sendable {
  @usableFromInline var members: [InnerSubscription] = []

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { members.isEmpty }

  @inlinable
  var count: Int { members.count }

  @inlinable
  func contains(_ inner: InnerSubscription) -> Bool { inner.index >= 0 }

  @inlinable
  mutating func insert(_ inner: InnerSubscription) {
    inner.index = members.count
    members.append(inner)
  }

  /// Removes `inner` if it is a member; returns its disposable for the caller to dispose (or drop).
  @inlinable
  @discardableResult
  mutating func remove(_ inner: InnerSubscription) -> (any Disposable)? {
    guard inner.index >= 0 else { return nil }
    let last = members.removeLast()
    if last !== inner {
      members[inner.index] = last
      last.index = inner.index
    }
    inner.index = -1
    defer { inner.disposable = nil }
    return inner.disposable
  }

  /// Records the disposable of a member whose `attach` has returned. Returns `false` if `inner` is no longer
  /// a member (it ended, or the operator did): the caller disposes the disposable.
  @inlinable
  func attached(_ inner: InnerSubscription, _ disposable: any Disposable) -> Bool {
    guard inner.index >= 0 else { return false }
    inner.disposable = disposable
    return true
  }

  /// Removes every member, adding their disposables to `teardown`.
  @inlinable
  mutating func removeAll<Value, Failure>(into teardown: inout Teardown<Value, Failure>) {
    for inner in members {
      inner.index = -1
      teardown.dispose(inner.disposable)
      inner.disposable = nil
    }
    members.removeAll()
  }
}
