import AsyncSignals
import Foundation

/// The broken twin of `replayLast()` for the zip + replayLast + take(1) shape (`--sabotage ZipReplayTake`), used
/// with RAC 2.5's lock-holding zip: a replaying subject that delivers under its lock and whose subscriptions take
/// that lock to remove themselves, as a peer's did. `take(1)` disposing inside a delivery then waits for the other
/// side's lock, whose holder waits for the zip's lock: a deadlock, which the watchdog must report.
final class LockingReplayLast: @unchecked Sendable {
  static let description =
    "RAC 2.5's lock-holding zip over replaying subjects whose disposal takes their delivery lock (expect a deadlock)"

  // guarded by: `lock`
  private let lock = NSRecursiveLock()
  private var latest: Int?
  private var subscribers: [(id: Int, subscriber: any Subscriber<Int, StressFailure>)] = []
  private var nextID = 0
  private var upstream: (any Disposable)?

  init(_ source: Subject<Int, StressFailure>) {
    let subscription = source.subscribeNext({ [weak self] value in self?.send(value) }, error: { _ in })
    lock.withLock { upstream = subscription }
  }

  deinit {
    upstream?.dispose()
  }

  private func send(_ value: Int) {
    lock.lock()
    defer { lock.unlock() }
    latest = value
    for entry in subscribers { entry.subscriber.sendNext(value) }
  }

  var signal: Signal<Int, StressFailure> {
    .create { [self] subscriber in
      lock.lock()
      let id = nextID
      nextID += 1
      subscribers.append((id, subscriber))
      if let latest { subscriber.sendNext(latest) }
      lock.unlock()
      return ActionDisposable { [self] in
        lock.lock()  // BUG: waits for a delivery in progress on another thread
        defer { lock.unlock() }
        subscribers.removeAll { $0.id == id }
      }
    }
  }

  var subscriberCount: Int { lock.withLock { subscribers.count } }
}
