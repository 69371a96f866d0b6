import AsyncSignals

/// The broken twin of `flattenMap` (`--sabotage FlattenMap`), built on the public API: its downstream is a
/// `create` subscriber, so delivery stays serial, but it completes as soon as the source completes instead of
/// waiting for the inner signals, whose later values are lost.
enum BrokenFlattenMap {
  static let description = "a flattenMap that completes when its source completes, without waiting for the inners"

  static func flattenMap(
    _ source: Signal<Int, StressFailure>, _ transform: @escaping @Sendable (Int) -> Signal<Int, StressFailure>
  ) -> Signal<Int, StressFailure> {
    .create { subscriber in
      let subscriptions = CompoundDisposable()
      subscriptions.add(
        source.subscribeNext(
          { value in
            subscriptions.add(
              transform(value).subscribeNext(
                { subscriber.sendNext($0) }, error: { subscriber.sendError($0) }, completed: {}))
          }, error: { subscriber.sendError($0) }, completed: { subscriber.sendCompleted() }))  // BUG: too early
      return subscriptions
    }
  }
}
