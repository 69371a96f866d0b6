import AsyncSignals

/// The broken twin of `Subject` (`--sabotage Subject`): lock-correct bookkeeping, but it calls each
/// subscriber directly on the sending thread (no per-subscriber serialisation), and `dispose()` only marks
/// the subscriber: the next send still delivers to it, then drops it.
final class BrokenSubject: HotSignal {
  private struct Entry {
    let recorder: Recorder<Int>
    let removed: Flag
  }

  private let entries = LockedBox<[Entry]>([])

  func sendNext(_ value: Int) {
    for entry in entries.value { entry.recorder.record(.next(value)) }  // BUG: unserialised, ignores `removed`
    entries.withLock { $0.removeAll { $0.removed.isSet } }
  }

  func subscribe(_ recorder: Recorder<Int>) -> any Disposable {
    let removed = Flag()
    entries.withLock { $0.append(Entry(recorder: recorder, removed: removed)) }
    return ActionDisposable { removed.set() }  // BUG: removal waits for the next send
  }

  var subscriberCount: Int { entries.value.count }
}
