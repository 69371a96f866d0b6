/// The lifetime of an object that owns it: it ends, disposing what was added to it and completing ``ended``, when
/// it is deinitialised — that is, when its owner goes away.
///
/// Swift has no hook into the deallocation of an arbitrary object (RAC used the Objective-C runtime for that),
/// so an object that wants its bindings and subscriptions to end with it stores a lifetime and conforms to
/// ``LifetimeProviding``. Keep the only strong reference in the owner: anything else that holds the lifetime
/// keeps it from ending.
///
/// ```swift
/// final class ProfileModel: LifetimeProviding, @unchecked Sendable {
///   let lifetime = Lifetime()
///   var name = ""  // in real code, guarded by a lock of the model's own
/// }
/// let model = ProfileModel()
/// names.bind(to: model, keyPath: \.name)  // ends when the model goes away
/// ticks.subscribeNext { print($0) }.dispose(with: model.lifetime)
/// ```
///
/// - Note: ReactiveCocoa 2.5 `rac_deallocDisposable` (the disposables added here) and `rac_willDeallocSignal`
///   (``ended``), which worked on any `NSObject` through the Objective-C runtime.
public final class Lifetime: Sendable {
  private let disposables = CompoundDisposable()
  private let endedSubject = Subject<Never, Never>()

  /// Creates a lifetime; store it in the object whose lifetime it is.
  ///
  /// ```swift
  /// let lifetime = Lifetime()
  /// ```
  ///
  /// - Note: RAC created the deallocation disposable lazily on any `NSObject`; here the owner creates it.
  public init() {}

  deinit {
    disposables.dispose()
    endedSubject.sendCompleted()
  }

  /// A signal that completes when the lifetime ends (at once for a subscriber that comes later, which cannot
  /// happen while the lifetime is referenced).
  ///
  /// ```swift
  /// model.lifetime.ended.subscribeCompleted { print("model is gone") }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `rac_willDeallocSignal`.
  public var ended: Signal<Never, Never> {
    endedSubject
  }

  /// Disposes `disposable` when the lifetime ends.
  ///
  /// ```swift
  /// model.lifetime.add(ticks.subscribeNext { [weak model] _ in model?.refresh() })  // weak: no cycle
  /// ```
  ///
  /// - Parameter disposable: What to dispose.
  /// - Note: ReactiveCocoa 2.5 `[obj.rac_deallocDisposable addDisposable:]`.
  public func add(_ disposable: any Disposable) {
    disposables.add(disposable)
  }

  /// Forgets `disposable` without disposing it (for a subscription that ended on its own).
  ///
  /// ```swift
  /// let migrating = migration.subscribeError({ print($0) }, completed: { print("migrated") })
  /// model.lifetime.add(migrating)
  /// // … once the migration has ended on its own:
  /// model.lifetime.remove(migrating)
  /// ```
  ///
  /// - Parameter disposable: What to forget.
  /// - Note: ReactiveCocoa 2.5 `[obj.rac_deallocDisposable removeDisposable:]`.
  public func remove(_ disposable: any Disposable) {
    disposables.remove(disposable)
  }
}

/// An object that owns a ``Lifetime``, so that the bindings and subscriptions tied to it end when it goes away.
///
/// ```swift
/// final class Counter: LifetimeProviding, Sendable {
///   let lifetime = Lifetime()
/// }
/// ```
///
/// - Note: Replaces the Objective-C runtime's deallocation hooks that RAC 2.5 relied on (`rac_deallocDisposable`).
public protocol LifetimeProviding: AnyObject {
  /// The object's lifetime; store it in a `let` (`nonisolated` in an actor-isolated class).
  ///
  /// ```swift
  /// final class Screen: LifetimeProviding, Sendable {
  ///   let lifetime = Lifetime()
  /// }
  /// ```
  var lifetime: Lifetime { get }
}

extension Disposable {
  /// Disposes this disposable when `lifetime` ends.
  ///
  /// ```swift
  /// ticks.subscribeNext { [weak model] _ in model?.refresh() }.dispose(with: model.lifetime)
  /// ```
  ///
  /// - Parameter lifetime: The lifetime that ends it.
  /// - Note: ReactiveCocoa 2.5 `[object.rac_deallocDisposable addDisposable:disposable]`.
  public func dispose(with lifetime: Lifetime) {
    lifetime.add(self)
  }
}
