import AsyncSignals
import Synchronization

/// The broken twin of `SerialDisposable` (`--sabotage SerialDisposable`): lock-correct, but disposing leaves
/// the inner in place (a later `swap` hands back an inner that was already disposed) and a new inner given
/// after disposal is kept instead of being disposed at once.
final class RetainingSerial: SerialContainer {
  private let current = LockedBox<(any Disposable)?>(nil)
  private let disposed = Atomic<Bool>(false)

  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  var inner: (any Disposable)? {
    get { current.value }
    set { _ = swap(newValue) }
  }

  func swap(_ disposable: (any Disposable)?) -> (any Disposable)? {
    current.withLock { inner in  // BUG: ignores `disposed`
      defer { inner = disposable }
      return inner
    }
  }

  func dispose() {
    disposed.store(true, ordering: .releasing)
    current.value?.dispose()  // BUG: the inner stays
  }
}
