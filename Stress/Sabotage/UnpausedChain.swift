import AsyncSignals

/// The broken twin of a chain that carries the pause (`--sabotage BoundedColdSource`): the same chain with an
/// unbounded `flattenMap { .return($0) }` at its end (the same values, in order). An unbounded flattening does not
/// carry the consumer's demand up to its source: the walk runs unpaused, and the bounded buffer holds whatever the
/// loop has not taken yet (counted as overflow). (It ended in `merge(.empty)` until `merge` carried the pause.)
enum UnpausedChain {
  static let description =
    "the chain ends in flattenMap { .return($0) }, which does not carry the pause: the walk runs unpaused"

  static func end(_ signal: Signal<Int, StressFailure>) -> Signal<Int, StressFailure> {
    signal.flattenMap { .return($0) }
  }
}
