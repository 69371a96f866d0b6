import AsyncSignals

/// Subscribing with no current scheduler, which schedules the `create` body on the background scheduler
/// (guarantee 5), racing disposal of the subscription.
///
/// Every thread (none has a current scheduler) subscribes six times and disposes each subscription after a
/// random pause: before its body was scheduled to run, while it runs, or after. A body that runs sends three
/// values and returns a probe as its cleanup. Once the background scheduler has drained, the cleanup of every
/// body that ran must have been disposed exactly once, and no value sent after `dispose()` returned may have
/// arrived.
struct SubscriptionSchedulingRace: Scenario {
  static let once = "a subscription's body runs at most once"
  static let current = "inside the body, Schedulers.current is not nil (guarantee 5)"
  static let cleanup = "the cleanup of a body that ran is disposed exactly once, even if disposal came first"
  static let afterDispose = "no delivery starts after dispose() returned"

  let name = "SubscriptionScheduling"
  let race = "threads with no current scheduler subscribe (body on the background scheduler) and dispose"
  let invariants = [once, current, cleanup, afterDispose, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenScheduledSubscription.description

  func threads(requested: Int) -> Int { max(2, requested) }

  private final class Attempt: Sendable {
    let recorder = Recorder<Int>()
    let runs = Tally()
    let sawNoScheduler = Flag()
    let cleanup = Probe(id: 0)
    let sends = LockedBox<[Int]>([])
    let disposeReturned = LockedBox(Int.max)
  }

  func iterate(_ iteration: Iteration) {
    let rounds = 6
    let clock = EpochClock()
    let attempts = (0..<iteration.threads).map { _ in Owned<[Attempt]>([]) }
    let sabotaged = iteration.isSabotaged
    iteration.race(withCurrentScheduler: false) { thread, random in
      for _ in 0..<rounds {
        let attempt = Attempt()
        let body: @Sendable (any Subscriber<Int, StressFailure>) -> (any Disposable)? = { subscriber in
          attempt.runs.increment()
          if Schedulers.current == nil { attempt.sawNoScheduler.set() }
          for _ in 0..<3 {
            let issued = clock.tick()
            attempt.sends.withLock { $0.append(issued) }
            subscriber.sendNext(issued)
          }
          return attempt.cleanup
        }
        let subscription =
          sabotaged
          ? BrokenScheduledSubscription.subscribe(body, attempt.recorder)
          : attempt.recorder.subscribe(to: .create(body))
        random.dawdle(4)
        subscription.dispose()
        attempt.disposeReturned.value = clock.tick()
        attempts[thread].value.append(attempt)
      }
      iteration.count(2 * rounds)
    }
    if sabotaged {
      BrokenScheduledSubscription.queue.sync {}
    } else {
      drainBackgroundScheduler(iteration)
    }
    for attempt in attempts.flatMap(\.value) {
      attempt.recorder.checkDelivery(iteration)
      let runs = attempt.runs.value
      iteration.check(runs <= 1, Self.once, "a body ran \(runs) times")
      iteration.check(!attempt.sawNoScheduler.isSet, Self.current, "a body ran with no current scheduler")
      if runs > 0 {
        iteration.check(
          attempt.cleanup.disposeCount == 1, Self.cleanup,
          "the cleanup of a body that ran was disposed \(attempt.cleanup.disposeCount) times")
      }
      let disposeReturned = attempt.disposeReturned.value
      for value in attempt.recorder.values where value > disposeReturned {
        iteration.fail(Self.afterDispose, "value sent at \(value) arrived; dispose returned at \(disposeReturned)")
      }
    }
  }
}
