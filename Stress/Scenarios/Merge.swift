import AsyncSignals

/// `Signal.merge` of one inner signal per thread, each inner fed by two threads.
///
/// Thread `t` sends 100 values into inner `t` and 100 into inner `t + 1` (mod the thread count), interleaved; the
/// second sender to finish with an inner completes it (in one iteration out of six, one thread fails one of its
/// inners mid-stream instead, and stops). Events from every thread meet in merge's outbox: downstream must see
/// one event at a time, every value once and in each sender's order, and completion once, after every inner.
struct MergeRace: Scenario {
  static let values = "every value arrives exactly once, each sender's values into each inner in the order sent"
  static let completion = "completion arrives exactly once, after every value of every inner (all inners completed)"
  static let failure = "an inner's failure arrives exactly once, and nothing after it"
  static let cleanup = "every inner subscription ends: each cleanup runs exactly once"

  let name = "Merge"
  let race = "Signal.merge of one inner per thread; two threads send into each inner, the second to finish completes it"
  let invariants = [values, completion, failure, cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenMerge.description

  func threads(requested: Int) -> Int { max(2, requested) }

  func iterate(_ iteration: Iteration) {
    let count = 100
    let threads = iteration.threads
    var random = iteration.random()
    let failing: (thread: Int, at: Int)? = random.oneIn(6) ? (random.below(threads), random.below(2 * count)) : nil
    let inners = (0..<threads).map { _ in Source<Int>() }
    let merged =
      iteration.isSabotaged ? BrokenMerge.merge(inners.map(\.signal)) : Signal.merge(inners.map(\.signal))
    let recorder = Recorder<Int>()
    let subscription = immediately { recorder.subscribe(to: merged) }
    let subscribers = inners.map(\.subscriber)
    let finished = (0..<threads).map { _ in Tally() }
    iteration.race { thread, random in
      let mine = [thread, (thread + 1) % threads]
      for step in 0..<(2 * count) {
        let inner = mine[step % 2]
        if let failing, failing.thread == thread, failing.at == step {
          subscribers[inner].sendError(StressFailure(code: inner))
          iteration.count(step + 1)
          return
        }
        subscribers[inner].sendNext(thread * 1_000_000 + inner * 10_000 + step / 2)
        if random.oneIn(32) { random.dawdle(2) }
      }
      for inner in mine where finished[inner].increment() == 2 { subscribers[inner].sendCompleted() }
      iteration.count(2 * count + 2)
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    var next: [Int: Int] = [:]  // per (sender, inner): the next value due
    for value in recorder.values {
      let (stream, sequence) = value.quotientAndRemainder(dividingBy: 10_000)
      if sequence != next[stream, default: 0] {
        iteration.fail(
          Self.values,
          "sender \(stream / 100), inner \(stream % 100): \(sequence) arrived when \(next[stream, default: 0]) was due")
        break
      }
      next[stream] = sequence + 1
    }
    if let failing {
      let inner = failing.at % 2 == 0 ? failing.thread : (failing.thread + 1) % threads
      iteration.check(
        recorder.terminals == 1 && recorder.events.last?.failure == StressFailure(code: inner), Self.failure,
        "events end with \(String(describing: recorder.events.last)), \(recorder.terminals) terminal events")
    } else {
      let total = recorder.values.count
      iteration.check(
        total == 2 * count * threads && recorder.isCompleted && recorder.terminals == 1, Self.completion,
        "\(total) of \(2 * count * threads) values, then \(String(describing: recorder.events.last))")
    }
    let cleanups = inners.map(\.cleanups.value)
    iteration.check(cleanups.allSatisfy { $0 == 1 }, Self.cleanup, "the inners' cleanups ran \(cleanups) times")
  }
}
