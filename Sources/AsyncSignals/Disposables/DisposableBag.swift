/// The children of a compound disposable or a subscription: the first two held inline (most subscriptions
/// never need more, as RAC observed), the rest in an array.
///
/// A plain value, always kept inside a lock; it never calls `dispose()` itself. `takeAll()` hands the
/// children out so that the caller disposes them after releasing the lock (guarantee 3).
@usableFromInline
struct DisposableBag: Sendable {
  @usableFromInline var first: (any Disposable)?
  @usableFromInline var second: (any Disposable)?
  @usableFromInline var rest: [any Disposable] = []
  @usableFromInline var isDisposed = false

  @inlinable
  init() {}

  /// Adds a child. Returns `false` if the bag has been disposed: the caller must dispose the child at once.
  @inlinable
  mutating func insert(_ disposable: any Disposable) -> Bool {
    guard !isDisposed else { return false }
    if first == nil {
      first = disposable
    } else if second == nil {
      second = disposable
    } else {
      // Room for four at the first spill: growing 1, 2, 4, 8 would cost four allocations for the next eight.
      if rest.capacity == 0 { rest.reserveCapacity(4) }
      rest.append(disposable)
    }
    return true
  }

  /// Removes every occurrence of `disposable` without disposing it.
  @inlinable
  mutating func remove(_ disposable: any Disposable) {
    if let first, first === disposable { self.first = nil }
    if let second, second === disposable { self.second = nil }
    if !rest.isEmpty { rest.removeAll { $0 === disposable } }
  }

  /// Removes the child whose identity is `id`, without disposing it.
  @inlinable
  mutating func remove(_ id: ObjectIdentifier) {
    if let first, ObjectIdentifier(first) == id { self.first = nil }
    if let second, ObjectIdentifier(second) == id { self.second = nil }
    if !rest.isEmpty { rest.removeAll { ObjectIdentifier($0) == id } }
  }

  /// The number of children kept.
  @inlinable
  var count: Int {
    (first == nil ? 0 : 1) + (second == nil ? 0 : 1) + rest.count
  }

  /// Marks the bag disposed and returns its children, which the caller disposes outside the lock.
  @inlinable
  mutating func takeAll() -> Children {
    guard !isDisposed else { return Children(first: nil, second: nil, rest: []) }
    isDisposed = true
    let children = Children(first: first, second: second, rest: rest)
    first = nil
    second = nil
    rest = []
    return children
  }

  /// Children taken out of a bag, to be disposed without any lock held.
  @usableFromInline
  struct Children {
    @usableFromInline let first: (any Disposable)?
    @usableFromInline let second: (any Disposable)?
    @usableFromInline let rest: [any Disposable]

    @inlinable
    init(first: (any Disposable)?, second: (any Disposable)?, rest: [any Disposable]) {
      self.first = first
      self.second = second
      self.rest = rest
    }

    @inlinable
    func disposeAll() {
      first?.dispose()
      second?.dispose()
      for child in rest { child.dispose() }
    }
  }
}

/// Arranges for `forget` to run once `disposable` has been disposed, if it is a kind that can say so: a
/// ``SerialDisposable`` (what ``Signal/subscribe(_:)`` hands to ``Subscriber/didSubscribe(with:)``) or a
/// ``CompoundDisposable`` (RAC's way: a child that runs `forget`), or what `subscribeNext(_:error:completed:)`
/// returns through an operator, when its chain's disposable is one of those. Other disposables are kept until their
/// owner ends. `forget` receives the disposable's identity, to remove it from a `DisposableBag` without retaining it.
func whenDisposed(_ disposable: any Disposable, forget: @escaping @Sendable (ObjectIdentifier) -> Void) {
  let id = ObjectIdentifier(disposable)
  if let serial = disposable as? SerialDisposable {
    serial.whenDisposed { forget(id) }
  } else if let compound = disposable as? CompoundDisposable {
    compound.add(ActionDisposable { forget(id) })  // disposed, so run, at once if the compound already is
  } else if let callbacks = disposable as? CallbackSubscription {
    whenDisposed(callbacks.inner) { _ in forget(id) }  // disposing it disposes its chain's disposable
  }
}
