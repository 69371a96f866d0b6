import AsyncSignals
import Foundation

/// The broken twin of a subject's turn (`--sabotage SubjectTurn`): delivery is serial, under one recursive lock, and
/// calls each observer through an unmanaged reference without retaining it, as the library's sinks do — but
/// `dispose()` releases the observer at once, with no `tryLock` of the turn and no hand-off to the thread in it. A
/// disposal from another thread, or from the callback itself, frees the observer while a call through it is still
/// running: a use-after-free, which AddressSanitizer reports as heap-use-after-free, and the scenario as an observer
/// released during a call.
final class EagerReleaseSubject: TurnSubject {
  static let description =
    "a subject whose dispose() releases the observer at once, even while the thread in its turn is calling it"

  private struct Entry: Sendable {
    let observer: Unmanaged<TurnObserver>
    let removed: Flag
  }

  private let turn = NSRecursiveLock()
  private let entries = LockedBox<[Entry]>([])

  init() {}

  func sendNext(_ value: Int) {
    turn.lock()
    defer { turn.unlock() }
    for entry in entries.value where !entry.removed.isSet {
      entry.observer._withUnsafeGuaranteedRef { $0.receive(value) }  // BUG: unretained, and see `subscribe`
    }
  }

  func subscribe(_ observer: TurnObserver) -> any Disposable {
    let entry = Entry(observer: .passRetained(observer), removed: Flag())
    entries.withLock { $0.append(entry) }
    return ActionDisposable { [entries] in
      entry.removed.set()
      entries.withLock { $0.removeAll { $0.removed === entry.removed } }
      entry.observer.release()  // BUG: at once, even while the thread in the turn is calling it
    }
  }
}
