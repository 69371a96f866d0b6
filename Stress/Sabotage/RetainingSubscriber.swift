import AsyncSignals

/// The broken twin of a subscriber's bookkeeping (`--sabotage SubscriberChurn`): a subscriber that keeps every
/// disposable handed to `didSubscribe(with:)` until it ends, as this library's subscribers did before — so a
/// long-lived subscriber of many short subscriptions grows without limit.
final class RetainingSubscriber: Subscriber {
  static let description = "a subscriber that keeps every subscription's disposable until it ends"

  private let base: any Subscriber<Int, StressFailure>
  private let kept = LockedBox<[any Disposable]>([])

  init(_ base: any Subscriber<Int, StressFailure>) { self.base = base }

  func sendNext(_ value: Int) { base.sendNext(value) }
  func sendError(_ error: StressFailure) { base.sendError(error) }
  func sendCompleted() { base.sendCompleted() }

  func didSubscribe(with disposable: any Disposable) {
    kept.withLock { $0.append(disposable) }  // BUG: never forgotten once disposed
    base.didSubscribe(with: disposable)
  }
}
