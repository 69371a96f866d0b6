import AsyncSignals

/// The broken twin of Interop's `values` (`--sabotage ForAwait`): an `AsyncThrowingStream` fed by a subscription,
/// with no `onTermination` handler, so cancelling the loop ends the loop but leaves the subscription alive.
enum UnsubscribingStream {
  static let description =
    "an AsyncThrowingStream bridge that does not dispose its subscription when the loop is cancelled"

  static func values(of signal: Signal<Int, StressFailure>) -> AsyncThrowingStream<Int, any Error> {
    AsyncThrowingStream { continuation in
      _ = signal.subscribeNext(
        { continuation.yield($0) }, error: { continuation.finish(throwing: $0) },
        completed: { continuation.finish() })
      // BUG: no `continuation.onTermination` disposing the subscription
    }
  }
}
