import Synchronization

/// A disposable that disposes a group of child disposables together.
///
/// Adding a child to a compound that is already disposed disposes the child at once. Children are
/// disposed outside the compound's lock, so a child whose cleanup adds to or removes from the same
/// compound cannot deadlock (guarantee 3). The first two children are stored inline, without an array,
/// as RAC does.
///
/// ```swift
/// let subscriptions = CompoundDisposable()
/// subscriptions.add(temperature.subscribeNext { print($0) })
/// subscriptions.add(humidity.subscribeNext { print($0) })
/// subscriptions.dispose()  // both subscriptions end
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACCompoundDisposable` (`+compoundDisposable`,
///   `+compoundDisposableWithDisposables:`, `-addDisposable:`, `-removeDisposable:`).
public final class CompoundDisposable: Disposable {
  @usableFromInline let state: LockedState<DisposableBag>  // guards the children
  @usableFromInline let disposed = Atomic<Bool>(false)  // mirrors `state`'s `isDisposed` for lock-free reads

  /// Creates an empty compound disposable.
  ///
  /// ```swift
  /// let subscriptions = CompoundDisposable()
  /// subscriptions.add(clicks.subscribeNext { print($0) })
  /// ```
  public init() {
    state = LockedState(DisposableBag())
  }

  /// Creates a compound disposable holding the given children.
  ///
  /// ```swift
  /// let readings = CompoundDisposable([
  ///   temperature.subscribeNext { print("temperature", $0) },
  ///   humidity.subscribeNext { print("humidity", $0) },
  /// ])
  /// readings.dispose()  // ends both subscriptions
  /// ```
  ///
  /// - Parameter disposables: The initial children; those already disposed are skipped.
  public convenience init(_ disposables: some Sequence<any Disposable>) {
    self.init()
    for disposable in disposables { add(disposable) }
  }

  /// Creates a compound disposable whose own `action` runs, once, alongside its children when it is
  /// disposed.
  ///
  /// ```swift
  /// let session = CompoundDisposable { print("session closed") }
  /// ```
  ///
  /// - Parameter action: Extra cleanup, run after the children have been disposed.
  /// - Note: ReactiveCocoa 2.5 `+[RACCompoundDisposable disposableWithBlock:]`.
  public convenience init(action: @escaping @Sendable () -> Void) {
    self.init()
    add(ActionDisposable(action))
  }

  /// Whether the compound has been disposed.
  ///
  /// ```swift
  /// subscriptions.dispose()
  /// print(subscriptions.isDisposed)  // true: a child added from now on is disposed at once
  /// ```
  @inlinable
  public var isDisposed: Bool {
    disposed.load(ordering: .acquiring)
  }

  /// Adds a child, or disposes it at once if this compound is already disposed: the form for `nil` and optionals.
  ///
  /// `nil` and already-disposed children are ignored. Safe to call from any thread.
  ///
  /// ```swift
  /// let cleanup: (any Disposable)? = clicks.subscribeNext { print($0) }
  /// subscriptions.add(cleanup)
  /// subscriptions.add(nil)  // ignored
  /// ```
  ///
  /// - Parameter disposable: The child to dispose together with this compound.
  /// - Note: This form is for `nil` and optionals. A non-optional child — of a type known where it is added (an
  ///   ``ActionDisposable``, a ``SerialDisposable``), or an `any Disposable`, which is opened — goes to the
  ///   generic overload, which does the same without converting it to `Optional<any Disposable>` first.
  @inlinable
  @_disfavoredOverload
  public func add(_ disposable: (any Disposable)?) {
    guard let disposable, !disposable.isDisposed else { return }
    let inserted = state.withLock { $0.insert(disposable) }
    if !inserted { disposable.dispose() }
  }

  /// Adds a child, or disposes it at once if this compound is already disposed: the form for a non-optional child.
  ///
  /// The same as the form that takes an optional `any Disposable`, which the compiler picks for `nil` and
  /// optionals; this one takes every non-optional child (an `any Disposable` is opened). It skips the conversion
  /// to an optional existential at the call site, and with it a retain and a release of the child on every call.
  /// An already-disposed child is ignored. Safe to call from any thread.
  ///
  /// ```swift
  /// subscriptions.add(ActionDisposable { print("cleaned up") })
  /// ```
  ///
  /// - Parameter disposable: The child to dispose together with this compound.
  @inlinable
  public func add<Child: Disposable>(_ disposable: Child) {
    guard !disposable.isDisposed else { return }
    let inserted = state.withLock { $0.insert(disposable) }
    if !inserted { disposable.dispose() }
  }

  /// Removes a child without disposing it: the form for `nil` and optionals. `nil`, or a disposable that is not a
  /// child, is ignored.
  ///
  /// ```swift
  /// let upload: (any Disposable)? = uploads.subscribeNext { print($0) }
  /// subscriptions.add(upload)
  /// subscriptions.remove(upload)  // disposing the compound no longer disposes the upload
  /// ```
  ///
  /// - Parameter disposable: The child to forget.
  /// - Note: This form is for `nil` and optionals; a non-optional child goes to the generic overload, which does
  ///   the same without converting it to `Optional<any Disposable>` first.
  @inlinable
  @_disfavoredOverload
  public func remove(_ disposable: (any Disposable)?) {
    guard let disposable else { return }
    state.withLock { $0.remove(disposable) }
  }

  /// Removes a child without disposing it: the form for a non-optional child. A disposable that is not a child is
  /// ignored.
  ///
  /// The same as the form that takes an optional `any Disposable` (which the compiler picks for `nil` and
  /// optionals), without the conversion to an optional existential (a retain and a release of the child) at the
  /// call site.
  ///
  /// ```swift
  /// let cleanup = ActionDisposable { print("cleaned up") }
  /// subscriptions.add(cleanup)
  /// subscriptions.remove(cleanup)  // disposing the compound no longer runs the cleanup
  /// ```
  ///
  /// - Parameter disposable: The child to forget.
  @inlinable
  public func remove<Child: Disposable>(_ disposable: Child) {
    state.withLock { $0.remove(disposable) }
  }

  /// Disposes every child (outside the lock) and marks the compound disposed; later calls do nothing.
  ///
  /// ```swift
  /// let screen = CompoundDisposable()
  /// screen.add(clicks.subscribeNext { print($0) })
  /// screen.add(ticks.subscribeNext { print($0) })
  /// screen.dispose()  // ends both; a second call does nothing
  /// ```
  public func dispose() {
    let children = state.withLock { bag in
      if !bag.isDisposed { disposed.store(true, ordering: .releasing) }
      return bag.takeAll()
    }
    children.disposeAll()
  }
}
