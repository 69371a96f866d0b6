import AsyncSignals
import Foundation

/// The broken twin of `ReplaySubject` for the replay-while-disposing shape (`--sabotage ReplayDispose`): a replay
/// subject with one recursive lock held while it replays and delivers, whose subscriptions take that lock to
/// remove themselves — as a peer's did. Disposing from another thread during a replay then waits for the replay.
final class LockingReplaySubject: DisposableReplay, @unchecked Sendable {
  static let description = "a replay subject whose disposal takes the lock held during replay (disposal waits)"

  // guarded by: `lock`
  private let lock = NSRecursiveLock()
  private var values: [Int] = []
  private var subscribers: [(id: ObjectIdentifier, subscriber: RecordingSubscriber, removed: Flag)] = []

  func sendNext(_ value: Int) {
    lock.lock()
    defer { lock.unlock() }
    values.append(value)
    for entry in subscribers where !entry.removed.isSet { entry.subscriber.sendNext(value) }
  }

  func subscribe(_ subscriber: RecordingSubscriber) -> any Disposable {
    let removed = Flag()
    let subscription = ActionDisposable { [self] in
      lock.lock()  // BUG: waits for a replay or a delivery in progress on another thread
      defer { lock.unlock() }
      removed.set()
      subscribers.removeAll { $0.id == ObjectIdentifier(subscriber) }
    }
    subscriber.didSubscribe(with: subscription)
    lock.lock()
    defer { lock.unlock() }
    subscribers.append((ObjectIdentifier(subscriber), subscriber, removed))
    for value in values where !removed.isSet { subscriber.sendNext(value) }
    return subscription
  }

  var subscriberCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return subscribers.count
  }
}
