/// One inner subscription of an operator that subscribes to several signals over time (bind, merge,
/// flatten, switchToLatest): its place in the operator's set and its disposable, once `attach` has returned.
///
/// Not final: an operator may add what its observer needs (`MergeInner`), so that one object serves both.
@usableFromInline
class InnerSubscription: @unchecked Sendable {
  // guarded by: the state lock of the operator that owns it; only `InnerSubscriptions` touches the fields.
  // No dynamic exclusivity check: the lock already rules out overlapping accesses (see `ObserverState`).
  @exclusivity(unchecked) @usableFromInline final var index = -1
  @exclusivity(unchecked) @usableFromInline final var disposable: (any Disposable)?

  @inlinable
  init() {}
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
