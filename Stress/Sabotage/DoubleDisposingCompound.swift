import AsyncSignals
import Foundation
import Synchronization

/// The broken twin of `CompoundDisposable` (`--sabotage CompoundDisposable`): lock-correct, so that
/// ThreadSanitizer has nothing to say, but its logic is wrong in two plausible ways — disposing does not take
/// the children out (two concurrent disposals both dispose every child), and a child added after disposal is
/// kept instead of being disposed at once.
final class DoubleDisposingCompound: DisposableContainer {
  private let children = LockedBox<[any Disposable]>([])
  private let disposed = Atomic<Bool>(false)

  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  func add(_ disposable: (any Disposable)?) {
    guard let disposable else { return }
    children.withLock { $0.append(disposable) }  // BUG: ignores `disposed`
  }

  func remove(_ disposable: (any Disposable)?) {
    guard let disposable else { return }
    children.withLock { $0.removeAll { $0 === disposable } }
  }

  func add(probe: Probe) { add(probe as any Disposable) }

  func remove(probe: Probe) { remove(probe as any Disposable) }

  func dispose() {
    disposed.store(true, ordering: .releasing)
    let snapshot = children.value  // BUG: the children stay, and a second disposal disposes them again
    for child in snapshot { child.dispose() }
  }
}
