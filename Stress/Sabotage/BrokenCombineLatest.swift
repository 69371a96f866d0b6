import AsyncSignals

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `combineLatest(with:)` (`--sabotage CombineLatest`), built on the public API: it keeps
/// the latest values under a lock, and its downstream is a `create` subscriber, so delivery stays serial — but
/// it sends each output after releasing its lock (the two sides' outputs can overtake each other), and it
/// completes as soon as either side completes.
enum BrokenCombineLatest {
  static let description =
    "a combineLatest that sends each output after releasing its lock and completes when either side completes"

  static func combineLatest(_ a: Signal<Int, StressFailure>, _ b: Signal<Int, StressFailure>) -> Signal<
    (Int, Int), StressFailure
  > {
    .create { subscriber in
      let latest = LockedBox<(left: Int?, right: Int?)>((nil, nil))
      @Sendable func received(left: Int?, right: Int?) {
        let output = latest.withLock { latest -> (Int, Int)? in
          if let left { latest.left = left }
          if let right { latest.right = right }
          guard let left = latest.left, let right = latest.right else { return nil }
          return (left, right)
        }
        guard let output else { return }
        sched_yield()  // widens the window, as a preemption at this point would
        subscriber.sendNext(output)  // BUG: outside the lock, so outputs can overtake each other
      }
      let left = a.subscribeNext(
        { received(left: $0, right: nil) }, error: { subscriber.sendError($0) },
        completed: { subscriber.sendCompleted() })  // BUG: too early
      let right = b.subscribeNext(
        { received(left: nil, right: $0) }, error: { subscriber.sendError($0) },
        completed: { subscriber.sendCompleted() })
      return CompoundDisposable([left, right])
    }
  }
}
