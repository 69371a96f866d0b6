import AsyncSignals
import Dispatch
import Foundation

/// The broken twin of a scheduled subscription (`--sabotage SubscriptionScheduling`): it runs the body on a
/// serial queue even when the subscription was disposed first, delivers everything the body sends, and
/// forgets the body's cleanup.
enum BrokenScheduledSubscription {
  static let description = "a subscription whose scheduled body runs and delivers after disposal, cleanup dropped"

  static let queue = DispatchQueue(label: "Stress.BrokenScheduledSubscription")

  /// A subscriber that forwards straight to the recorder, serialised by a lock, ignoring disposal.
  private final class Forwarder: Subscriber, @unchecked Sendable {
    // guarded by: `lock`, around every call into the recorder.
    let lock = NSLock()
    let recorder: Recorder<Int>

    init(_ recorder: Recorder<Int>) { self.recorder = recorder }

    func sendNext(_ value: Int) { lock.withLock { recorder.record(.next(value)) } }
    func sendError(_ error: StressFailure) { lock.withLock { recorder.record(.error(error)) } }
    func sendCompleted() { lock.withLock { recorder.record(.completed) } }
  }

  static func subscribe(
    _ body: @escaping @Sendable (any Subscriber<Int, StressFailure>) -> (any Disposable)?, _ recorder: Recorder<Int>
  ) -> any Disposable {
    let forwarder = Forwarder(recorder)
    queue.async {
      ImmediateScheduler.shared.performAsCurrent { _ = body(forwarder) }  // BUG: runs after disposal; cleanup lost
    }
    return ActionDisposable()
  }
}
