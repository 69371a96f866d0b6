import AsyncSignals
import Foundation

/// The broken twin of `timeout(_:on:raising:)` (`--sabotage Timeout`): it forwards the source's events and, when
/// its timer fires, the timeout, each under a lock, so delivery stays serial — but it neither cancels the timer
/// when the source ends nor disposes the source when the timer fires: both can end the subscription.
enum UncancelledTimeout {
  static let description = "a timeout whose timer is not cancelled when the source ends, nor the source when it fires"

  static func subscribe(
    _ recorder: Recorder<Int>, to source: Signal<Int, StressFailure>, interval: Duration, scheduler: QueueScheduler,
    raising error: StressFailure
  ) -> any Disposable {
    let lock = NSRecursiveLock()
    let subscription = source.subscribeNext(
      { value in lock.withLock { recorder.record(.next(value)) } },
      error: { failure in lock.withLock { recorder.record(.error(failure)) } },
      completed: { lock.withLock { recorder.record(.completed) } })
    let timer = scheduler.schedule(afterDelay: interval) {
      lock.withLock { recorder.record(.error(error)) }  // BUG: even after the source ended
    }
    return CompoundDisposable([subscription, timer].compactMap { $0 })
  }
}
