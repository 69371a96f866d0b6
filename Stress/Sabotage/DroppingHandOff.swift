import AsyncSignals
import Foundation

/// The broken twin of the hand-off (`--sabotage SlowSubscriber`): a hand-off queue of capacity zero. Each input
/// passes through a gate shared by all of them; a value that arrives while another thread is delivering (the
/// gate is taken) is dropped instead of being queued for that thread. Nothing waits and nothing grows, but
/// values are lost — the trade a bounded queue would make.
enum DroppingHandOff {
  static let description = "a hand-off that drops a value when another thread is delivering (a queue of capacity 0)"

  /// The inputs, gated.
  static func gate(_ inputs: [Signal<Int, StressFailure>]) -> [Signal<Int, StressFailure>] {
    let delivering = NSLock()
    return inputs.map { input in
      Signal.create { subscriber in
        input.subscribeNext(
          { value in
            guard delivering.try() else { return }  // BUG: dropped, not queued
            subscriber.sendNext(value)
            delivering.unlock()
          }, error: { subscriber.sendError($0) }, completed: { subscriber.sendCompleted() })
      }
    }
  }
}
