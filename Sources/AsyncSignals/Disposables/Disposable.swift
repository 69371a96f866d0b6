/// Something that can be cancelled or cleaned up: a subscription, scheduled work, any resource.
///
/// Disposing runs the disposable's cleanup exactly once, however many times and from however many threads
/// `dispose()` is called (guarantee 3). Disposal never blocks waiting for another thread.
///
/// ```swift
/// let disposable = ticks.subscribeNext { print($0) }
/// disposable.dispose()  // no more values; the signal's cleanup has run
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACDisposable` (`-dispose`, the `disposed` property). Disposables are classes,
///   as in RAC: `CompoundDisposable.remove(_:)` compares identities.
public protocol Disposable: AnyObject, Sendable {
  /// Whether `dispose()` has been called. It may turn `true` at any moment, from another thread.
  ///
  /// ```swift
  /// if !subscription.isDisposed { print("still running") }
  /// ```
  var isDisposed: Bool { get }

  /// Performs the cleanup if it has not run yet; later calls do nothing.
  ///
  /// ```swift
  /// subscription.dispose()  // ends it; a second call does nothing
  /// ```
  func dispose()
}

extension Disposable {
  /// Wraps this disposable in a ``ScopedDisposable`` that disposes it when the wrapper is deinitialised.
  ///
  /// ```swift
  /// final class ViewModel {
  ///   let subscription = ticks.subscribeNext { print($0) }.asScoped()
  /// }  // releasing the view model disposes the subscription
  /// ```
  ///
  /// - Returns: A new scoped disposable, or `self` if this already is one.
  /// - Note: ReactiveCocoa 2.5 `-asScopedDisposable`.
  public func asScoped() -> ScopedDisposable {
    if let scoped = self as? ScopedDisposable { return scoped }
    return ScopedDisposable(self)
  }
}

/// A disposable that is disposed from the start; returned by subscriptions that ended before `subscribe`
/// returned. Disposing it does nothing.
@usableFromInline
final class DisposedDisposable: Disposable {
  @usableFromInline static let shared = DisposedDisposable()

  @usableFromInline var isDisposed: Bool { true }

  @usableFromInline func dispose() {}
}
