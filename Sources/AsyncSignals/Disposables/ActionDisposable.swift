import Synchronization

/// A disposable that runs an action the first time it is disposed.
///
/// The action runs exactly once, on the thread of the first `dispose()` call, and is released right after,
/// so whatever it captured is freed (guarantee 8). `isDisposed` is a lock-free atomic read.
///
/// ```swift
/// let timer = ActionDisposable { print("stopped") }
/// timer.dispose()  // prints "stopped"
/// timer.dispose()  // does nothing
/// ```
///
/// - Note: ReactiveCocoa 2.5 `+[RACDisposable disposableWithBlock:]`; `ActionDisposable()` is
///   `[RACDisposable new]`, a disposable that only records that it was disposed.
public final class ActionDisposable: Disposable, @unchecked Sendable {
  // guarded by: `disposed` — `action` is written by `init` and afterwards touched only by the one thread whose
  // `exchange` flips `disposed` to true. That is also why its accesses need no dynamic exclusivity check: the
  // initialisers are inlinable (creating one is a hot path, issue 21's W6b), and in a client module the compiler
  // would otherwise call `swift_beginAccess` for the store in `init`.
  @usableFromInline let disposed: Atomic<Bool>
  @exclusivity(unchecked) @usableFromInline var action: (@Sendable () -> Void)?

  /// Creates a disposable that runs `action` when it is first disposed.
  ///
  /// ```swift
  /// let cancel = ActionDisposable { print("cancelled") }
  /// ```
  ///
  /// - Parameter action: The cleanup. It runs once, on the disposing thread, and is then released.
  @inlinable
  public init(_ action: @escaping @Sendable () -> Void) {
    self.disposed = Atomic(false)
    self.action = action
  }

  /// Creates a disposable with no action, which only records whether it was disposed.
  ///
  /// ```swift
  /// let flag = ActionDisposable()
  /// flag.dispose()
  /// print(flag.isDisposed)  // true
  /// ```
  @inlinable
  public init() {
    self.disposed = Atomic(false)
    self.action = nil
  }

  /// Whether `dispose()` has been called.
  ///
  /// ```swift
  /// let request = ActionDisposable { print("request cancelled") }
  /// print(request.isDisposed)  // false
  /// request.dispose()          // request cancelled
  /// print(request.isDisposed)  // true
  /// ```
  @inlinable
  public var isDisposed: Bool {
    disposed.load(ordering: .acquiring)
  }

  /// Runs the action if this is the first call; otherwise does nothing.
  ///
  /// ```swift
  /// let cleanup = ActionDisposable { print("cleaned up") }
  /// DispatchQueue.global().async { cleanup.dispose() }
  /// cleanup.dispose()  // whichever call comes first runs the action, on its own thread, once
  /// ```
  public func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // Moved out and unwrapped in one step, so the call borrows it: no retain and release of the closure's
    // context around the call (`let action = self.action; action?()` costs both).
    guard let action = self.action.take() else { return }
    action()
  }
}
