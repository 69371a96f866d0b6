import AsyncSignals

/// The broken twin of a chain that carries the pause (`--sabotage BoundedColdSource`): the same chain with a `merge`
/// at its end. `merge` combines inputs, so it does not carry the consumer's demand up to the source: the walk runs
/// unpaused, and the bounded buffer holds whatever the loop has not taken yet (counted as overflow).
enum UnpausedChain {
  static let description = "the chain ends in merge(.empty), which does not carry the pause: the walk runs unpaused"

  static func end(_ signal: Signal<Int, StressFailure>) -> Signal<Int, StressFailure> {
    signal.merge(.empty)
  }
}
