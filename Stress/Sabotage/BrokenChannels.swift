import AsyncSignals
import Foundation

/// The broken twin of a serialising subscriber (`--sabotage SerialDelivery`): it calls the callbacks
/// directly on each sending thread, so callbacks overlap.
struct UnserialisedChannel: Channel {
  let recorder: Recorder<Int>

  init(_ recorder: Recorder<Int>) { self.recorder = recorder }

  func send(_ event: Event<Int, StressFailure>) { recorder.record(event) }  // BUG: no delivery lock

  func dispose() {}

  var leftover: String? { nil }
}

/// The broken twin of a subscription's terminal and disposal bookkeeping (`--sabotage TerminalRace`): its
/// delivery is serialised by a recursive lock, but it records neither the terminal event nor disposal, so
/// it keeps delivering after both.
final class UnguardedChannel: Channel {
  private let lock = NSRecursiveLock()
  private let recorder: Recorder<Int>

  init(_ recorder: Recorder<Int>) { self.recorder = recorder }

  func send(_ event: Event<Int, StressFailure>) {
    lock.lock()
    defer { lock.unlock() }
    recorder.record(event)  // BUG: after a terminal event or disposal too
  }

  func dispose() {}

  var leftover: String? { nil }
}
