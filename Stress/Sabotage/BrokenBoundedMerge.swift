import AsyncSignals

/// The broken twin of `merge`'s pause (`--sabotage BoundedMerge`): each input is relayed through a `create` body,
/// which does not carry the consumer's demand up to it — as a `merge` that ended the pause would. The inputs run
/// unpaused (a walk to its end, an async body's `send` without waiting), and the buffer passes its bound.
enum BrokenBoundedMerge {
  static let description =
    "each input is relayed through a create body, which does not carry the pause: the inputs run unpaused"

  static func relay(_ signal: Signal<Int, StressFailure>) -> Signal<Int, StressFailure> {
    BrokenBoundedFlatten.relay(signal)
  }
}
