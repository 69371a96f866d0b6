import AsyncSignals

/// The broken twin of `Signal.merge` (`--sabotage Merge`), built on the public API: its downstream is a `create`
/// subscriber, so delivery stays serial, but it completes as soon as any inner completes, losing the values the
/// others send afterwards.
enum BrokenMerge {
  static let description = "a merge that completes as soon as any inner completes"

  static func merge(_ signals: [Signal<Int, StressFailure>]) -> Signal<Int, StressFailure> {
    .create { subscriber in
      CompoundDisposable(
        signals.map { signal in
          signal.subscribeNext(
            { subscriber.sendNext($0) }, error: { subscriber.sendError($0) },
            completed: { subscriber.sendCompleted() })  // BUG: the others may still send
        })
    }
  }
}
