/// A disposable that disposes the disposable it wraps when it is deinitialised.
///
/// Keep one in a property to tie a subscription to the lifetime of its owner.
///
/// ```swift
/// final class Screen {
///   private let clock: ScopedDisposable
///   init(ticks: Signal<Int, Never>) {
///     clock = ScopedDisposable(ticks.subscribeNext { print($0) })
///   }
/// }  // when the screen goes away, so does the subscription
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACScopedDisposable` (`+scopedDisposableWithDisposable:`).
public final class ScopedDisposable: Disposable {
  /// The disposable this one disposes.
  ///
  /// ```swift
  /// let clock = ScopedDisposable(ticks.subscribeNext { print($0) })
  /// subscriptions.add(clock.wrapped)  // the subscription itself, which `clock` also ends when it goes away
  /// ```
  public let wrapped: any Disposable

  /// Wraps `disposable`, to be disposed when this scoped disposable is deinitialised or disposed.
  ///
  /// ```swift
  /// let clock = ScopedDisposable(ticks.subscribeNext { print($0) })  // ends when `clock` goes away
  /// ```
  ///
  /// - Parameter disposable: The disposable to scope.
  public init(_ disposable: any Disposable) {
    wrapped = disposable
  }

  deinit {
    wrapped.dispose()
  }

  /// Whether the wrapped disposable has been disposed.
  ///
  /// ```swift
  /// let clock = ScopedDisposable(ticks.subscribeNext { print($0) })
  /// clock.wrapped.dispose()
  /// print(clock.isDisposed)  // true: the wrapped disposable's state
  /// ```
  public var isDisposed: Bool { wrapped.isDisposed }

  /// Disposes the wrapped disposable now.
  ///
  /// ```swift
  /// let clock = ScopedDisposable(ticks.subscribeNext { print($0) })
  /// clock.dispose()  // ends the subscription now, without waiting for `clock` to go away
  /// ```
  public func dispose() { wrapped.dispose() }
}
