import AsyncSignals

/// `combineLatest(with:)` with several producers per side.
///
/// Threads alternate sides; each sends 100 values into its side's `create` subscriber, and the last producer of a
/// side to finish completes it (in one iteration out of six, one producer fails its side mid-stream instead).
/// Each side's order — the order its values reached the combineLatest — is recorded by a `map` in front of it.
/// Each output is decided for one input value, so, in terms of those orders, the first output holds the first
/// value of one side and the latest value of the other, and every later output advances exactly one side by
/// exactly one value: it holds the latest value of each side at the moment it was decided, never goes back,
/// skips nothing.
struct CombineLatestRace: Scenario {
  static let latest =
    "each output holds the latest value of each side: it advances exactly one side by one value (none skipped)"
  static let forward = "outputs never go backwards on either side"
  static let completion =
    "completion arrives exactly once, after every side completed, the last output holding each side's last value"
  static let failure = "a side's failure arrives exactly once, and nothing after it"
  static let cleanup = "both upstream subscriptions end: each cleanup runs exactly once"

  let name = "CombineLatest"
  let race = "threads alternate sides of combineLatest(with:), 100 values each; each side completes (or fails)"
  let invariants = [latest, forward, completion, failure, cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenCombineLatest.description

  func threads(requested: Int) -> Int { max(2, requested) }

  func iterate(_ iteration: Iteration) {
    let count = 100
    var random = iteration.random()
    let failing: (thread: Int, at: Int)? =
      random.oneIn(6) ? (random.below(iteration.threads), random.below(count)) : nil
    let sides = [Source<Int>(), Source<Int>()]
    let orders = [SerialState<[Int]>([]), SerialState<[Int]>([])]
    let observed = (0..<2).map { side in
      sides[side].signal.map {
        orders[side].value.append($0)
        return $0
      }
    }
    let combined =
      iteration.isSabotaged
      ? BrokenCombineLatest.combineLatest(observed[0], observed[1]) : observed[0].combineLatest(with: observed[1])
    let recorder = Recorder<(Int, Int)>()
    let subscription = immediately { recorder.subscribe(to: combined) }
    let subscribers = sides.map(\.subscriber)
    let producers = [(iteration.threads + 1) / 2, iteration.threads / 2]
    let finished = [Tally(), Tally()]
    iteration.race { thread, random in
      let side = thread % 2
      let subscriber = subscribers[side]
      for sequence in 0..<count {
        if let failing, failing.thread == thread, failing.at == sequence {
          subscriber.sendError(StressFailure(code: thread))
          iteration.count(sequence + 1)
          return
        }
        subscriber.sendNext(thread * 100_000 + sequence)
        if random.oneIn(32) { random.dawdle(2) }
      }
      if finished[side].increment() == producers[side] { subscriber.sendCompleted() }
      iteration.count(count + 1)
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    check(recorder, orders: orders.map(\.value), failing: failing?.thread, iteration)
    iteration.check(
      sides[0].cleanups.value == 1 && sides[1].cleanups.value == 1, Self.cleanup,
      "cleanups ran \(sides[0].cleanups.value) and \(sides[1].cleanups.value) times")
  }

  private func check(_ recorder: Recorder<(Int, Int)>, orders: [[Int]], failing: Int?, _ iteration: Iteration) {
    let where0 = positions(of: orders[0])
    let where1 = positions(of: orders[1])
    var previous: (Int, Int)?
    for (index, output) in recorder.values.enumerated() {
      guard let left = where0[output.0], let right = where1[output.1] else {
        iteration.fail(Self.latest, "output #\(index) \(output) holds a value its side never delivered")
        return
      }
      if let (lastLeft, lastRight) = previous {
        if left < lastLeft || right < lastRight {
          iteration.fail(
            Self.forward, "output #\(index) is at positions (\(left), \(right)) after (\(lastLeft), \(lastRight))")
          return
        }
        if (left - lastLeft) + (right - lastRight) != 1 {
          iteration.fail(
            Self.latest, "output #\(index) is at positions (\(left), \(right)) after (\(lastLeft), \(lastRight))")
          return
        }
      } else if left != 0 && right != 0 {
        iteration.fail(Self.latest, "the first output is at positions (\(left), \(right)): neither side's first")
        return
      }
      previous = (left, right)
    }
    if let failing {
      iteration.check(
        recorder.terminals == 1 && recorder.events.last?.failure == StressFailure(code: failing), Self.failure,
        "events end with \(String(describing: recorder.events.last)), \(recorder.terminals) terminal events")
      return
    }
    let last = previous.map { ($0.0, $0.1) }
    iteration.check(
      recorder.isCompleted && recorder.terminals == 1
        && last.map { $0 == (orders[0].count - 1, orders[1].count - 1) }
          ?? false,
      Self.completion,
      "the last output is at positions \(String(describing: last)) of (\(orders[0].count), \(orders[1].count)) "
        + "values, then \(String(describing: recorder.events.last))")
  }
}
