import AsyncSignals

/// The broken twin of `Signal.merge` for the foreign-lock shape (`--sabotage MergeForeignLock`): RAC 2.5's merge,
/// which forwards every inner's events straight into its `create` subscriber. That subscriber serialises by
/// making a sender wait while another thread delivers, so a sender holding the foreign lock waits for a
/// deliverer whose callback waits for that lock: a deadlock, which the watchdog must report.
enum BlockingMerge {
  static let description = "RAC 2.5's merge, whose senders wait for the delivery in progress (expect a deadlock)"

  static func merge(_ signals: [Signal<Int, StressFailure>]) -> Signal<Int, StressFailure> {
    .create { subscriber in
      let remaining = LockedBox(signals.count)
      return CompoundDisposable(
        signals.map { signal in
          signal.subscribeNext(
            { subscriber.sendNext($0) },  // BUG (for this shape): waits while another thread delivers
            error: { subscriber.sendError($0) },
            completed: {
              if remaining.withLock({ count -> Int in
                count -= 1
                return count
              }) == 0 {
                subscriber.sendCompleted()
              }
            })
        })
    }
  }
}
