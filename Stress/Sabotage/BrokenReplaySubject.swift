import AsyncSignals
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `ReplaySubject` (`--sabotage ReplaySubject`): lock-correct, and each subscriber is called
/// under a lock of its own, so delivery stays serial — but subscribing takes the replay and registers the
/// subscriber in two steps, and replays outside the subject's lock: a value sent in between is lost to the new
/// subscriber, and live values can overtake the replay.
final class BrokenReplaySubject: ReplayingSubject {
  static let description =
    "a replay subject that snapshots the replay and registers the subscriber in two steps, then replays unlocked"

  private final class Entry: Sendable {
    let recorder: Recorder<Int>
    let lock = NSRecursiveLock()
    let removed = Flag()

    init(_ recorder: Recorder<Int>) { self.recorder = recorder }

    func deliver(_ event: Event<Int, StressFailure>) {
      lock.lock()
      defer { lock.unlock() }
      if !removed.isSet { recorder.record(event) }
    }
  }

  let capacity: Int
  private let state = LockedBox<(buffer: [Int], entries: [Entry], completed: Bool)>(([], [], false))

  init(capacity: Int) { self.capacity = capacity }

  func sendNext(_ value: Int) {
    let entries = state.withLock { state -> [Entry] in
      state.buffer.append(value)
      if state.buffer.count > capacity { state.buffer.removeFirst() }
      return state.entries
    }
    for entry in entries { entry.deliver(.next(value)) }
  }

  func sendCompleted() {
    let entries = state.withLock { state -> [Entry] in
      state.completed = true
      defer { state.entries = [] }
      return state.entries
    }
    for entry in entries { entry.deliver(.completed) }
  }

  func subscribe(_ recorder: Recorder<Int>) -> any Disposable {
    let entry = Entry(recorder)
    let (replay, completed) = state.withLock { ($0.buffer, $0.completed) }
    sched_yield()  // widens the window, as a preemption at this point would
    state.withLock { $0.entries.append(entry) }  // BUG: a value sent since the snapshot is neither replayed nor live
    for value in replay { entry.deliver(.next(value)) }  // BUG: unlocked, so live values can come first
    if completed { entry.deliver(.completed) }
    return ActionDisposable { [state] in
      entry.removed.set()
      state.withLock { $0.entries.removeAll { $0 === entry } }
    }
  }

  var subscriberCount: Int { state.value.entries.count }

  var currentValue: Int? { nil }
}
