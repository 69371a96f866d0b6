import AsyncSignals

/// The broken twin of bounded concurrency's pause (`--sabotage BoundedFlatten`): the outer signal of
/// `flatten(maxConcurrent:)`, `flattenMap(maxConcurrent:)` and `concat()` is relayed through a `create` body, which
/// does not carry the operator's stage up to it — as an operator that ignored its limit would. The outer walk runs
/// unpaused and the operator queues every inner it sends, so the inners in hand pass the limit.
enum BrokenBoundedFlatten {
  static let description =
    "the outer signal is relayed through a create body, which ignores the operator's stage: the outer walk runs "
    + "unpaused and its inners queue"

  static func relay<Value: Sendable>(_ signal: Signal<Value, StressFailure>) -> Signal<Value, StressFailure> {
    .create { subscriber in signal.subscribe(subscriber) }
  }
}
