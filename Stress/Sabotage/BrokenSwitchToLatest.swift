import AsyncSignals

/// The broken twin of `switchToLatest()` (`--sabotage SwitchToLatest`), built on the public API: it keeps the
/// current inner subscription in a `SerialDisposable`, whose replacement — RAC semantics — does not dispose the
/// previous inner, and it forwards every inner's values; so a replaced inner keeps sending downstream.
enum BrokenSwitchToLatest {
  static let description = "a switchToLatest that forwards every inner's values and never disposes a replaced inner"

  static func switchToLatest(_ outer: Signal<Signal<Int, StressFailure>, StressFailure>) -> Signal<
    Int, StressFailure
  > {
    .create { subscriber in
      let current = SerialDisposable()
      // (the latest inner's number, whether it completed, whether the outer completed)
      let state = LockedBox<(latest: Int, latestDone: Bool, outerDone: Bool)>((-1, false, false))
      let outerSubscription = outer.subscribeNext(
        { inner in
          let number = state.withLock { state -> Int in
            state.latest += 1
            state.latestDone = false
            return state.latest
          }
          current.inner = inner.subscribeNext(  // BUG: the previous inner is neither disposed nor ignored
            { subscriber.sendNext($0) }, error: { subscriber.sendError($0) },
            completed: {
              if state.withLock({ state -> Bool in
                guard state.latest == number else { return false }
                state.latestDone = true
                return state.outerDone
              }) {
                subscriber.sendCompleted()
              }
            })
        }, error: { subscriber.sendError($0) },
        completed: {
          if state.withLock({ state -> Bool in
            state.outerDone = true
            return state.latestDone || state.latest < 0
          }) {
            subscriber.sendCompleted()
          }
        })
      return CompoundDisposable([outerSubscription, current])
    }
  }
}
