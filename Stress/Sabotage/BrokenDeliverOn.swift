import AsyncSignals
import Dispatch

/// The broken twin of `deliver(on:)` (`--sabotage DeliverOn`), built on the public API: its downstream is a
/// `create` subscriber, so delivery stays serial — but it hands each event to a concurrent queue instead of the
/// scheduler, so events arrive off the scheduler and out of order.
enum BrokenDeliverOn {
  static let description = "a deliver(on:) that dispatches each event to a concurrent queue instead of the scheduler"

  /// The concurrent queue; the scenario waits for it with a barrier before it reads what was delivered.
  static let queue = DispatchQueue(label: "Stress.BrokenDeliverOn", attributes: .concurrent)

  static func deliver(_ source: Signal<Int, StressFailure>, on scheduler: QueueScheduler) -> Signal<
    Int, StressFailure
  > {
    .create { subscriber in
      source.subscribeNext(
        { value in queue.async { subscriber.sendNext(value) } },  // BUG: not the scheduler
        error: { failure in queue.async { subscriber.sendError(failure) } },
        completed: { queue.async { subscriber.sendCompleted() } })
    }
  }
}
