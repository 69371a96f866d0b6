import AsyncSignals
import AsyncSignalsInterop

/// Flow control through `merge` (issue 28): slow loops over `.bounded(n)` of a merge of 2 to 4 inputs that can pause,
/// sending from different threads; each input must pause while the loop is full.
///
/// Each crew thread starts one loop in a task of its own and waits for that task to end, so that a loop that never
/// ends holds a crew thread and the watchdog reports it (a watchdog cannot see a suspended task). The kinds of input
/// are chosen per input: a `Signal.from` walked in the loop's own task (it pauses, and resumes on the thread that
/// makes room), a `Signal.from` walked on one of two worker queues (`subscribe(on:)`: it pauses and resumes there),
/// and a `Signal.async` body that sends with `await subscriber.send(_:)` (it suspends on the pool). Half the loops
/// read `Signal.merge` of the inputs, the others fold them with `merge(_:)`.
///
/// The loop's buffer is read from the library's instrumented counter, `SignalSequence.Iterator.highWaterMark`, as
/// `BoundedColdSource` reads it. The documented bound is `n + m − 1` for `m` inputs: each input sending from a thread
/// of its own may have found room the instant before the loop filled, and `merge` holds one value otherwise. The
/// report prints the most any loop's buffer held beyond `n`.
struct BoundedMergeRace: Scenario {
  static let withinBound =
    "the buffer never holds more than n + m − 1 values for m inputs (the library's high-water mark)"
  static let lossless =
    "the loop receives every value of every input exactly once, each input's in order, and completes"

  let name = "BoundedMerge"
  let race =
    "three slow loops over .bounded(n) of merges of 2–4 inputs that pause: Signal.from walked in the task or on "
    + "queues, Signal.async bodies that await send"
  let invariants = [withinBound, lossless]
  let sabotage = BrokenBoundedMerge.description

  func threads(requested: Int) -> Int { 3 }

  enum Kind: Int, CaseIterable {
    case fromInTask, fromOnQueue, asyncBody

    var label: String {
      switch self {
      case .fromInTask: "Signal.from in the task"
      case .fromOnQueue: "Signal.from on a queue"
      case .asyncBody: "Signal.async (await send)"
      }
    }
  }

  struct Figures {
    var loops = 0
    var values = 0
    /// The most values a buffer held beyond its bound, and the inputs of that loop.
    var overshoot = (count: 0, inputs: 0)
    var overflow = 0
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "\(figures.loops) loops, \(figures.values) values; buffer: at most \(figures.overshoot.count) beyond n, "
      + "with \(figures.overshoot.inputs) inputs (n + m − 1 allowed); overflowCount \(figures.overflow) in all"
  }

  static let perInput = 150

  struct Plan: Sendable {
    let kinds: [Kind]
    let bound: Int
    let folded: Bool
    let seed: UInt64

    var label: String { "merge of [\(kinds.map(\.label).joined(separator: ", "))], n = \(bound)" }
  }

  struct Outcome: Sendable {
    var received = 0
    var disorder: String?
    var failure: Int?
    var highWaterMark = 0
    var overflow = 0
  }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let plans = (0..<3).map { _ in
      Plan(
        kinds: (0..<(2 + random.below(3))).map { _ in Kind(rawValue: random.below(Kind.allCases.count))! },
        bound: 1 + random.below(8), folded: random.oneIn(2), seed: random.next())
    }
    let workers = (0..<2).map { QueueScheduler(name: "Stress.BoundedMerge.worker\($0)") }
    let sabotaged = iteration.isSabotaged
    let outcomes = LockedBox<[Int: Outcome]>([:])
    iteration.race(withCurrentScheduler: false) { thread, _ in
      let plan = plans[thread]
      let ended = Latch()
      Task.detached {
        let outcome = await Self.read(plan, workers: workers, sabotaged: sabotaged)
        outcomes.withLock { $0[thread] = outcome }
        ended.signal()
      }
      // A crew thread waits for its loop's task: one that never ends holds it, and the watchdog reports it.
      _ = ended.wait(for: 1, seconds: 24 * 3_600)
      iteration.count(plan.kinds.count * Self.perInput)
    }
    let seen = outcomes.value
    for thread in 0..<3 {
      let plan = plans[thread]
      let expected = plan.kinds.count * Self.perInput
      guard let outcome = seen[thread] else {
        iteration.fail(Self.lossless, "\(plan.label): the loop did not end")
        continue
      }
      iteration.check(
        outcome.highWaterMark <= plan.bound + plan.kinds.count - 1, Self.withinBound,
        "\(plan.label): the buffer held \(outcome.highWaterMark) values")
      if let disorder = outcome.disorder { iteration.fail(Self.lossless, "\(plan.label): \(disorder)") }
      iteration.check(
        outcome.received == expected && outcome.failure == nil, Self.lossless,
        "\(plan.label): \(outcome.received) values of \(expected), failure \(String(describing: outcome.failure))")
    }
    Self.figures.withLock { figures in
      for (thread, outcome) in seen {
        figures.loops += 1
        figures.values += outcome.received
        let overshoot = outcome.highWaterMark - plans[thread].bound
        if overshoot > figures.overshoot.count { figures.overshoot = (overshoot, plans[thread].kinds.count) }
        figures.overflow += outcome.overflow
      }
    }
  }

  /// Input `index`: `perInput` values from `index * perInput`, sent as its kind sends.
  private static func input(_ index: Int, _ kind: Kind, workers: [QueueScheduler]) -> Signal<Int, StressFailure> {
    let values = index * perInput..<(index + 1) * perInput
    switch kind {
    case .fromInTask:
      return Signal.from(values)
    case .fromOnQueue:
      return Signal.from(values).subscribe(on: workers[index % 2])
    case .asyncBody:
      return Signal<Int, StressFailure>.async { subscriber in
        for value in values { await subscriber.send(value) }
      }
    }
  }

  /// One loop: builds its merge, reads it slowly, and checks each value as it arrives.
  private static func read(_ plan: Plan, workers: [QueueScheduler], sabotaged: Bool) async -> Outcome {
    var inputs = plan.kinds.enumerated().map { input($0.offset, $0.element, workers: workers) }
    if sabotaged { inputs = inputs.map(BrokenBoundedMerge.relay) }
    let signal = plan.folded ? inputs.dropFirst().reduce(inputs[0]) { $0.merge($1) } : Signal.merge(inputs)
    var outcome = Outcome()
    var random = SplitMix(seed: plan.seed)
    var next = plan.kinds.indices.map { $0 * perInput }  // each input's next value
    let loop = BoundedLoop(signal, limit: plan.bound)
    var iterator = loop.makeIterator()
    do throws(StressFailure) {
      while let value = try await iterator.next() {
        let input = value / perInput
        if outcome.disorder == nil, !plan.kinds.indices.contains(input) || next[input] != value {
          outcome.disorder = "value #\(outcome.received) is \(value), out of its input's order"
        }
        if plan.kinds.indices.contains(input) { next[input] = value + 1 }
        outcome.received += 1
        if random.oneIn(2) {
          for _ in 0..<random.below(4) { await Task.yield() }
        }
      }
    } catch {
      outcome.failure = error.code
    }
    outcome.highWaterMark = iterator.highWaterMark
    outcome.overflow = iterator.overflowCount
    return outcome
  }
}
