import AsyncSignals

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `Signal.concat` of a collection hands each completion over to the next subscription: an inner signal may
/// complete on another thread while its subscription (`attach`) is still running on the thread that subscribed it
/// (the trampoline's "completed while attaching": the attaching thread goes on), or after it (the completing thread
/// goes on), while a third thread may dispose the concatenation.
struct ConcatCollectionRace: Scenario {
  static let oneAtATime = "each inner signal is subscribed once, in order, only after the previous one completed"
  static let order = "the values arrive in the order sent, each inner signal's after the previous one's"
  static let finishes = "unless disposed, the concatenation completes with every inner signal's values"
  static let afterDispose = "no delivery starts after dispose() returned"
  static let cleanup = "every inner subscription made ends: each cleanup runs exactly once"

  let name = "ConcatCollection"
  let race =
    "inner signals complete on two threads, during or after their own subscription; a third thread disposes"
  let invariants = [oneAtATime, order, finishes, afterDispose, cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenConcatCollection.description

  func threads(requested: Int) -> Int { 3 }

  /// The harness's side of the inner signals: who subscribed to what, and which subscriber a worker thread
  /// finishes next.
  final class Inners: Sendable {
    struct State {
      /// The subscribers of the subscriptions made, by inner index (each inner is subscribed to at most once).
      var subscribers: [(any Subscriber<Int, StressFailure>)?]
      var subscriptions: [Int]
      /// The first subscription no worker has taken yet.
      var nextToFinish = 0
      /// Workers finishing an inner signal (sending, completing, and whatever that subscribes in turn).
      var busy = 0
    }

    let count: Int
    let state: LockedBox<State>
    let subscribedAt: [Owned<Int>]
    let completedAt: [Owned<Int>]
    let cleanups: [Tally]
    let signals: [Signal<Int, StressFailure>]

    init(count: Int, dawdles: [Int], clock: EpochClock) {
      self.count = count
      let state = LockedBox(
        State(subscribers: Array(repeating: nil, count: count), subscriptions: Array(repeating: 0, count: count)))
      self.state = state
      let subscribedAt = (0..<count).map { _ in Owned(0) }
      self.subscribedAt = subscribedAt
      completedAt = (0..<count).map { _ in Owned(Int.max) }
      let cleanups = (0..<count).map { _ in Tally() }
      self.cleanups = cleanups
      signals = (0..<count).map { index in
        Signal.create { subscriber in
          let tick = clock.tick()
          state.withLock { state in
            if state.subscriptions[index] == 0 { subscribedAt[index].value = tick }
            state.subscriptions[index] += 1
            state.subscribers[index] = subscriber
          }
          // Still inside the subscription: a worker may finish this signal on its own thread meanwhile.
          for _ in 0..<dawdles[index] { sched_yield() }
          return ActionDisposable { cleanups[index].increment() }
        }
      }
    }

    /// The next inner subscription to finish, if one has been made and no worker has taken it; `nil` and `stuck`
    /// when none can come any more: no worker is finishing one (which is where the next is subscribed).
    func take() -> (index: Int, subscriber: any Subscriber<Int, StressFailure>)?? {
      state.withLock { state in
        let index = state.nextToFinish
        guard index < count, let subscriber = state.subscribers[index] else {
          return state.busy == 0 ? .some(nil) : nil
        }
        state.nextToFinish += 1
        state.busy += 1
        return (index, subscriber)
      }
    }

    func finished() { state.withLock { $0.busy -= 1 } }
  }

  func iterate(_ iteration: Iteration) {
    let count = 6
    var random = iteration.random()
    let disposes = random.oneIn(2)
    let disposeAfter = random.below(40)
    let clock = EpochClock()
    let inners = Inners(count: count, dawdles: (0..<count).map { _ in random.below(4) }, clock: clock)
    let recorder = Recorder<Int>()
    let signal =
      iteration.isSabotaged
      ? BrokenConcatCollection.concat(inners.signals) : Signal.concat(inners.signals)
    let subscription = immediately { recorder.subscribe(to: signal) }
    let disposeReturned = Owned(Int.max)
    let done = Flag()
    iteration.race { thread, random in
      if thread == 2 {
        guard disposes else { return }
        for _ in 0..<disposeAfter { random.dawdle(1) }
        subscription.dispose()
        disposeReturned.value = clock.tick()
        done.set()
        iteration.count(1)
        return
      }
      while !done.isSet {
        guard let taken = inners.take() else {
          sched_yield()
          continue
        }
        guard let (index, subscriber) = taken.map({ ($0.index, $0.subscriber) }) else { break }  // none can come
        for _ in 0..<2 { subscriber.sendNext(clock.tick() * 8 + index) }
        random.dawdle(1)
        inners.completedAt[index].value = clock.tick()
        subscriber.sendCompleted()
        inners.finished()
        iteration.count(3)
      }
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    let subscriptions = inners.state.value.subscriptions
    let made = subscriptions.prefix { $0 > 0 }.count
    iteration.check(
      subscriptions.allSatisfy { $0 <= 1 } && subscriptions.dropFirst(made).allSatisfy { $0 == 0 }, Self.oneAtATime,
      "subscriptions per inner signal: \(subscriptions)")
    for index in 1..<max(made, 1) {
      iteration.check(
        inners.subscribedAt[index].value > inners.completedAt[index - 1].value, Self.oneAtATime,
        "inner \(index) was subscribed at \(inners.subscribedAt[index].value), before inner \(index - 1) completed at \(inners.completedAt[index - 1].value)"
      )
    }
    let values = recorder.values
    iteration.check(
      zip(values, values.dropFirst()).allSatisfy { $0 / 8 < $1 / 8 && $0 % 8 <= $1 % 8 }, Self.order,
      "values out of order: \(values.map { "\($0 % 8):\($0 / 8)" })")
    if !disposes {
      iteration.check(
        recorder.isCompleted && values.count == 2 * count, Self.finishes,
        "\(values.count) values, completed: \(recorder.isCompleted), subscriptions: \(subscriptions)")
    }
    for value in values where value / 8 > disposeReturned.value {
      iteration.fail(
        Self.afterDispose, "value sent at \(value / 8) arrived; dispose returned at \(disposeReturned.value)")
    }
    for index in 0..<count {
      iteration.check(
        inners.cleanups[index].value == subscriptions[index], Self.cleanup,
        "inner \(index): cleanup ran \(inners.cleanups[index].value) times for \(subscriptions[index]) subscriptions")
    }
  }
}
