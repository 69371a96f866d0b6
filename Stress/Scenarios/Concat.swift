import AsyncSignals

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `concat` hands over from the first signal to the second on the thread that completes the first, while
/// another thread disposes the result: whichever wins, the second subscription must not outlive disposal.
struct ConcatRace: Scenario {
  static let order = "the first signal's values, in order, then the second's, in order"
  static let afterDispose = "no delivery starts after dispose() returned"
  static let cleanup = "every subscription made ends: each cleanup runs exactly once"

  let name = "Concat"
  let race = "completing the first signal (which subscribes to the second) races disposal of the concatenation"
  let invariants = [order, afterDispose, cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenConcat.description

  func threads(requested: Int) -> Int { 3 }

  func iterate(_ iteration: Iteration) {
    let count = 30
    var random = iteration.random()
    let disposeAt = random.below(2 * count)
    let completesSecond = random.oneIn(2)  // otherwise only disposal can end the second subscription
    let first = Source<Int>()
    let second = Source<Int>()
    let recorder = Recorder<Int>()
    let subscription = immediately {
      recorder.subscribe(
        to: iteration.isSabotaged
          ? BrokenConcat.concat(first.signal, second.signal) : first.signal.concat(second.signal))
    }
    let firstSubscriber = first.subscriber
    let clock = EpochClock()
    let firstDone = Flag()
    let disposeReturned = Owned(Int.max)
    let firstValues = Owned<Set<Int>>([])
    iteration.race { thread, random in
      switch thread {
      case 0:
        for _ in 0..<count {
          let issued = clock.tick()
          firstValues.value.insert(issued)
          firstSubscriber.sendNext(issued)
        }
        firstSubscriber.sendCompleted()
        firstDone.set()
      case 1:
        for _ in 0..<disposeAt { random.dawdle(1) }
        subscription.dispose()
        disposeReturned.value = clock.tick()
      default:
        var secondSubscriber: (any Subscriber<Int, StressFailure>)?
        while secondSubscriber == nil {
          let done = firstDone.isSet
          secondSubscriber = second.subscriberIfSubscribed
          if secondSubscriber == nil && done { return }  // the first never completed into the second
          sched_yield()
        }
        for _ in 0..<count { secondSubscriber?.sendNext(clock.tick()) }
        if completesSecond { secondSubscriber?.sendCompleted() }
      }
      iteration.count(count + 1)
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    let values = recorder.values
    let firstCount = values.prefix { firstValues.value.contains($0) }.count
    iteration.check(
      values.dropFirst(firstCount).allSatisfy { !firstValues.value.contains($0) }, Self.order,
      "a value of the first signal arrived after one of the second")
    iteration.check(
      zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, Self.order, "values out of order: \(values)")
    for value in values where value > disposeReturned.value {
      iteration.fail(Self.afterDispose, "value sent at \(value) arrived; dispose returned at \(disposeReturned.value)")
    }
    iteration.check(
      first.cleanups.value == 1, Self.cleanup, "the first signal's cleanup ran \(first.cleanups.value) times")
    let secondSubscriptions = second.subscriberIfSubscribed == nil ? 0 : 1
    iteration.check(
      second.cleanups.value == secondSubscriptions, Self.cleanup,
      "the second signal's cleanup ran \(second.cleanups.value) times for \(secondSubscriptions) subscriptions")
  }
}
