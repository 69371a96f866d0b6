import AsyncSignals
import AsyncSignalsInterop

/// The broken twin of `values(bufferingPolicy: .bounded(n))` (`--sabotage BoundedBuffering`): the same loop over
/// the unbounded policy, so producers never wait and the buffer grows past the bound.
enum UnboundedBackpressure {
  static let description = "a values loop whose producers never wait for room (the unbounded policy)"

  static func values(of signal: Signal<Int, StressFailure>) -> SignalSequence<Int, StressFailure> {
    signal.values(bufferingPolicy: .unbounded)
  }
}
