import AsyncSignals

/// `flatten(maxConcurrent:)` with inner signals fed from several threads.
///
/// Thread 0 sends 16 inner signals into the outer signal and completes it; the limit is 1, 2, 3 or 0 (none),
/// chosen per iteration. An inner's body counts itself in and hands its subscriber to a mailbox, twice; the
/// other threads take inner subscribers from the mailbox and send half of that inner's 16 values each, and
/// whoever finishes an inner second counts it out and completes it (in one iteration out of six, fails one inner
/// instead). Inners beyond the limit wait, and are subscribed, in arrival order, by the thread whose inner
/// completion made room.
struct FlattenRace: Scenario {
  static let limit = "no more than maxConcurrent inners are subscribed at once (an inner counts until it ends)"
  static let order = "inners are subscribed in the order they arrived"
  static let values =
    "every inner value arrives exactly once, each sender's half in order; with a limit of 1, inner by inner"
  static let completion = "completion arrives exactly once, after the outer and every inner completed"
  static let failure = "an inner failure arrives exactly once and ends everything"
  static let cleanup = "every inner subscribed and the outer end: each cleanup runs exactly once"

  let name = "Flatten"
  let race = "one thread sends 16 inners into flatten(maxConcurrent:); the others send into them, two threads per inner"
  let invariants = [limit, order, values, completion, failure, cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = "a flatten that ignores maxConcurrent (subscribes to every inner as it arrives)"

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let innerCount = 16
    let perInner = 16
    var random = iteration.random()
    let maxConcurrent = [1, 2, 3, 0][random.below(4)]
    let failing = random.oneIn(6) ? random.below(innerCount) : nil
    let mailbox = Mailbox<(index: Int, subscriber: any Subscriber<Int, StressFailure>)?>()
    let active = Tally()
    let mostActive = LockedBox(0)
    let subscribedOrder = LockedBox<[Int]>([])
    let innerCleanups = (0..<innerCount).map { _ in Tally() }
    let claims = (0..<innerCount).map { _ in Tally() }
    let finished = (0..<innerCount).map { _ in Tally() }
    let inners = (0..<innerCount).map { index in
      Signal<Int, StressFailure>.create { subscriber in
        let now = active.increment()
        mostActive.withLock { $0 = max($0, now) }
        subscribedOrder.withLock { $0.append(index) }
        mailbox.post((index, subscriber), count: 2)
        return ActionDisposable { innerCleanups[index].increment() }
      }
    }
    let outer = Source<Signal<Int, StressFailure>>()
    let flattened =
      iteration.isSabotaged ? outer.signal.flatten() : outer.signal.flatten(maxConcurrent: maxConcurrent)
    let recorder = Recorder<Int>()
    let subscription = immediately { recorder.subscribe(to: flattened) }
    let outerSubscriber = outer.subscriber
    let tickets = Tally()
    iteration.race { thread, random in
      if thread == 0 {
        for inner in inners {
          outerSubscriber.sendNext(inner)
          if random.oneIn(4) { random.dawdle(2) }
        }
        outerSubscriber.sendCompleted()
        iteration.count(innerCount + 1)
        return
      }
      while tickets.increment() <= 2 * innerCount {
        guard let (index, subscriber) = mailbox.take() else { continue }
        let first = index * perInner + (claims[index].increment() == 1 ? 0 : perInner / 2)
        for value in first..<(first + perInner / 2) {
          subscriber.sendNext(value)
          if random.oneIn(8) { random.dawdle(1) }
        }
        if finished[index].increment() == 2 {
          active.decrement()
          if index == failing {
            subscriber.sendError(StressFailure(code: index))
            // The inners that will now never be subscribed still owe the workers their mailbox items.
            let subscribed = subscribedOrder.value.count
            mailbox.post(nil, count: 2 * (innerCount - subscribed))
          } else {
            subscriber.sendCompleted()
          }
        }
        iteration.count(perInner / 2 + 1)
      }
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    let most = mostActive.value
    let bound = maxConcurrent == 0 ? innerCount : maxConcurrent
    iteration.check(most <= bound, Self.limit, "\(most) inners subscribed at once; maxConcurrent \(maxConcurrent)")
    let order = subscribedOrder.value
    iteration.check(order == Array(order.indices), Self.order, "inners subscribed in the order \(order)")
    check(recorder, failing: failing, serial: maxConcurrent == 1, innerCount: innerCount, perInner: perInner, iteration)
    let cleanups = innerCleanups.map(\.value)
    iteration.check(
      order.allSatisfy { cleanups[$0] == 1 } && outer.cleanups.value == 1, Self.cleanup,
      "inner cleanups ran \(cleanups) times for the inners \(order), the outer's \(outer.cleanups.value)")
  }

  private func check(
    _ recorder: Recorder<Int>, failing: Int?, serial: Bool, innerCount: Int, perInner: Int, _ iteration: Iteration
  ) {
    let values = recorder.values
    var next: [Int: Int] = [:]  // per (inner, half): the next value due
    var latestInner = 0
    for value in values {
      let half = value / (perInner / 2)
      let due = next[half] ?? half * (perInner / 2)
      if value != due {
        iteration.fail(Self.values, "value \(value) arrived when \(due) was due from its sender")
        return
      }
      next[half] = due + 1
      let inner = value / perInner
      if serial && inner < latestInner {
        iteration.fail(Self.values, "with maxConcurrent 1, a value of inner \(inner) after one of inner \(latestInner)")
        return
      }
      latestInner = max(latestInner, inner)
    }
    if let failing {
      iteration.check(
        recorder.terminals == 1 && recorder.events.last?.failure == StressFailure(code: failing), Self.failure,
        "events end with \(String(describing: recorder.events.last)), \(recorder.terminals) terminal events")
    } else {
      iteration.check(
        values.count == innerCount * perInner && recorder.isCompleted && recorder.terminals == 1, Self.completion,
        "after \(values.count) of \(innerCount * perInner) values: \(String(describing: recorder.events.last))")
    }
  }
}
