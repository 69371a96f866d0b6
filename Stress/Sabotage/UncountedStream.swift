import AsyncSignals
import AsyncSignalsInterop

/// The broken twin of Interop's `values(bufferingPolicy:onDrop:)` (`--sabotage Buffering`): an
/// `AsyncThrowingStream` with the same buffering policy, which ignores what `yield` reports — the values its
/// buffer drops are neither passed to `onDrop` nor counted.
enum UncountedStream {
  static let description = "an AsyncThrowingStream bridge that does not report the values its buffer drops"

  static func values(of signal: Signal<Int, StressFailure>, policy: SignalBufferingPolicy) -> AsyncThrowingStream<
    Int, any Error
  > {
    let limit: AsyncThrowingStream<Int, any Error>.Continuation.BufferingPolicy
    switch policy {
    case .unbounded, .bounded: limit = .unbounded  // AsyncStream cannot make a producer wait
    case .bufferingNewest(let count): limit = .bufferingNewest(count)
    case .bufferingOldest(let count): limit = .bufferingOldest(count)
    }
    return AsyncThrowingStream(bufferingPolicy: limit) { continuation in
      let subscription = signal.subscribeNext(
        { _ = continuation.yield($0) },  // BUG: a `.dropped` result is ignored
        error: { continuation.finish(throwing: $0) }, completed: { continuation.finish() })
      continuation.onTermination = { _ in subscription.dispose() }
    }
  }
}
