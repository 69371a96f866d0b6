import Synchronization

/// A disposable that holds one replaceable inner disposable and disposes the current one when it is
/// disposed itself.
///
/// Replacing the inner disposable — by setting ``inner`` or with ``swap(_:)`` — does **not** dispose the
/// previous one; ``swap(_:)`` hands it back so that you decide. This is ReactiveCocoa's semantics; RxSwift's
/// and ReactiveSwift's serial disposables dispose the previous inner on replacement. Once the serial
/// disposable is disposed, any new inner is disposed at once and ``inner`` stays `nil`.
///
/// ```swift
/// let current = SerialDisposable()
/// current.inner = search(for: "swi").subscribeNext { print($0) }
/// let previous = current.swap(search(for: "swift").subscribeNext { print($0) })
/// previous?.dispose()  // replacing did not dispose the old search
/// current.dispose()    // disposes the newest search
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACSerialDisposable` (`disposable`, `-swapInDisposable:`,
///   `+serialDisposableWithDisposable:`).
public final class SerialDisposable: Disposable {
  private struct State: Sendable {
    var inner: (any Disposable)?
    var isDisposed = false
    /// Run once, after the inner, when disposed: how a subscriber forgets this subscription (`whenDisposed`).
    var onDispose: (@Sendable () -> Void)?
  }

  private let state: LockedState<State>  // guards the inner disposable and `onDispose`
  private let disposed = Atomic<Bool>(false)  // mirrors `state`'s `isDisposed` for lock-free reads

  /// Creates a serial disposable holding `inner`, which may be `nil`.
  ///
  /// ```swift
  /// let current = SerialDisposable(search(for: "swi").subscribeNext { print($0) })
  /// ```
  ///
  /// - Parameter inner: The initial inner disposable.
  public init(_ inner: (any Disposable)? = nil) {
    state = LockedState(State(inner: inner))
  }

  /// Creates a serial disposable whose inner disposable runs `action`. Disposing that inner alone does not
  /// dispose the serial disposable.
  ///
  /// ```swift
  /// let current = SerialDisposable { print("first inner disposed") }
  /// ```
  ///
  /// - Parameter action: The cleanup of the initial inner disposable.
  /// - Note: ReactiveCocoa 2.5 `+[RACSerialDisposable disposableWithBlock:]`.
  public convenience init(action: @escaping @Sendable () -> Void) {
    self.init(ActionDisposable(action))
  }

  /// Whether the serial disposable has been disposed.
  ///
  /// ```swift
  /// current.dispose()
  /// print(current.isDisposed, current.inner == nil)  // true true
  /// ```
  public var isDisposed: Bool {
    disposed.load(ordering: .acquiring)
  }

  /// The current inner disposable. Setting it does not dispose the previous one; after disposal, a new
  /// value is disposed at once and the property stays `nil`.
  ///
  /// ```swift
  /// current.inner = search(for: "swift").subscribeNext { print($0) }  // the previous inner is not disposed
  /// ```
  public var inner: (any Disposable)? {
    get { state.withLock { $0.inner } }
    set { _ = swap(newValue) }
  }

  /// Replaces the inner disposable and returns the previous one, which is not disposed.
  ///
  /// If this serial disposable has already been disposed, `disposable` is disposed at once and the result
  /// is `nil`.
  ///
  /// ```swift
  /// let previous = current.swap(search(for: "swift").subscribeNext { print($0) })
  /// previous?.dispose()  // your choice, not the serial disposable's
  /// ```
  ///
  /// - Parameter disposable: The new inner disposable.
  /// - Returns: The previous inner disposable.
  @discardableResult
  public func swap(_ disposable: (any Disposable)?) -> (any Disposable)? {
    let (previous, accepted) = state.withLock { state -> ((any Disposable)?, Bool) in
      guard !state.isDisposed else { return (nil, false) }
      let previous = state.inner
      state.inner = disposable
      return (previous, true)
    }
    if !accepted { disposable?.dispose() }
    return previous
  }

  /// Disposes the current inner disposable (outside the lock) and marks this one disposed.
  ///
  /// ```swift
  /// let current = SerialDisposable(search(for: "swi").subscribeNext { print($0) })
  /// current.dispose()  // ends the search it holds
  /// current.inner = search(for: "swift").subscribeNext { print($0) }  // disposed at once
  /// ```
  public func dispose() {
    let (inner, onDispose) = state.withLock { state -> ((any Disposable)?, (@Sendable () -> Void)?) in
      guard !state.isDisposed else { return (nil, nil) }
      state.isDisposed = true
      disposed.store(true, ordering: .releasing)
      defer {
        state.inner = nil
        state.onDispose = nil
      }
      return (state.inner, state.onDispose)
    }
    inner?.dispose()
    onDispose?()
  }

  /// Runs `action` once this serial disposable has been disposed (after its inner), or at once if it already is.
  ///
  /// Internal: how a subscriber that keeps this subscription's disposable forgets it when it is disposed
  /// (`Sink.didSubscribe(with:)`, `Subject.didSubscribe(with:)`), as RAC's subscriber does.
  func whenDisposed(_ action: @escaping @Sendable () -> Void) {
    let runsNow = state.withLock { state -> Bool in
      guard !state.isDisposed else { return true }
      if let earlier = state.onDispose {
        state.onDispose = {
          earlier()
          action()
        }
      } else {
        state.onDispose = action
      }
      return false
    }
    if runsNow { action() }
  }
}
