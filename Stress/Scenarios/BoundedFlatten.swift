import AsyncSignals
import AsyncSignalsInterop

/// Flow control through bounded concurrency (issue 28): slow loops over `.bounded(n)` of `flatten(maxConcurrent: k)`,
/// `flattenMap(maxConcurrent: k)` and `concat()` of a `Signal.from` of inner signals. While `k` inners are in hand
/// the outer walk must pause instead of queueing inners, and the inners must pause while the loop is full.
///
/// Each crew thread starts one loop in a task of its own and waits for that task to end, so that a loop that never
/// ends holds a crew thread and the watchdog reports it (a watchdog cannot see a suspended task). The shapes take
/// turns between the threads:
/// - `flatten(maxConcurrent: k)`, k from 1 to 4, of `Signal.from` inners each walked on one of two worker queues
///   (`subscribe(on:)`): they pause there and resume there, racing each other and the loop on the pool;
/// - `flattenMap(maxConcurrent: k)` into `Signal.async` bodies that send with `await subscriber.send(_:)`: they
///   suspend on the pool's threads;
/// - `concat()` of `Signal.from` inners, one in two walked in the loop's own task and the other on a worker queue.
///
/// The outer signal counts the inners it produces and each inner counts itself finished just before it completes;
/// the most produced and not finished at once is the high-water mark of the inners in the operator's hands (the
/// documented bound: `k`). The loop's buffer is read from the library's instrumented counter,
/// `SignalSequence.Iterator.highWaterMark`, as `BoundedColdSource` reads it: the documented bound is `n + k − 1`
/// (`k` inners sending from threads of their own may each have found room the instant before the loop filled; one
/// value at most is in the operator's hands otherwise). The report prints both high-water marks.
struct BoundedFlattenRace: Scenario {
  static let inHand =
    "the outer pauses at the limit: never more than maxConcurrent inners produced and not finished (the high-water "
    + "mark of inners in hand)"
  static let withinBound =
    "the buffer never holds more than n + k − 1 values (the library's high-water mark), k = maxConcurrent"
  static let lossless =
    "the loop receives every inner value exactly once, each inner's in order (with concat, all in order), and "
    + "completes"

  let name = "BoundedFlatten"
  let race =
    "three slow loops over .bounded(n) of flatten(maxConcurrent:) / flattenMap(maxConcurrent:) / concat() of a "
    + "Signal.from of inners walked on queues, suspended in tasks, or walked in the loop's task"
  let invariants = [inHand, withinBound, lossless]
  let sabotage = BrokenBoundedFlatten.description

  func threads(requested: Int) -> Int { 3 }

  enum Shape: Int, CaseIterable {
    case flatten, flattenMap, concat

    var label: String {
      switch self {
      case .flatten: "flatten(maxConcurrent:) of inners walked on queues"
      case .flattenMap: "flattenMap(maxConcurrent:) into Signal.async bodies that await send"
      case .concat: "concat() of inners walked in the task and on a queue"
      }
    }
  }

  struct Figures {
    var loops = 0
    var values = 0
    /// The most inners in hand, and the limit of that loop.
    var inHand = (count: 0, limit: 0)
    /// The most values the buffer held beyond its bound.
    var overshoot = 0
    var overflow = 0
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "\(figures.loops) loops, \(figures.values) values; inners in hand: high-water mark \(figures.inHand.count) "
      + "(limit \(figures.inHand.limit)); buffer: at most \(figures.overshoot) beyond n (n + k − 1 allowed); "
      + "overflowCount \(figures.overflow) in all"
  }

  static let innerCount = 24
  static let perInner = 16

  /// The inners one loop's outer produced and finished.
  final class InnerTally: Sendable {
    private let counts = LockedBox((produced: 0, finished: 0, highWaterMark: 0))

    func produced() {
      counts.withLock { counts in
        counts.produced += 1
        counts.highWaterMark = max(counts.highWaterMark, counts.produced - counts.finished)
      }
    }

    func finished() { counts.withLock { $0.finished += 1 } }

    var highWaterMark: Int { counts.value.highWaterMark }
  }

  struct Plan: Sendable {
    let shape: Shape
    let limit: Int
    let bound: Int
    let seed: UInt64
  }

  struct Outcome: Sendable {
    var received = 0
    var disorder: String?
    var failure: Int?
    var highWaterMark = 0
    var overflow = 0
    var inHand = 0
  }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let plans = (0..<3).map { thread in
      let shape = Shape(rawValue: (thread + iteration.number) % Shape.allCases.count)!
      return Plan(
        shape: shape, limit: shape == .concat ? 1 : 1 + random.below(4), bound: 1 + random.below(6),
        seed: random.next())
    }
    let workers = (0..<2).map { QueueScheduler(name: "Stress.BoundedFlatten.worker\($0)") }
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
      iteration.count(Self.innerCount * Self.perInner)
    }
    let seen = outcomes.value
    for thread in 0..<3 {
      let plan = plans[thread]
      let what = "\(plan.shape.label), k = \(plan.limit), n = \(plan.bound)"
      guard let outcome = seen[thread] else {
        iteration.fail(Self.lossless, "\(what): the loop did not end")
        continue
      }
      iteration.check(
        outcome.inHand <= plan.limit, Self.inHand,
        "\(what): \(outcome.inHand) inners were produced and not finished at once")
      iteration.check(
        outcome.highWaterMark <= plan.bound + plan.limit - 1, Self.withinBound,
        "\(what): the buffer held \(outcome.highWaterMark) values")
      if let disorder = outcome.disorder { iteration.fail(Self.lossless, "\(what): \(disorder)") }
      iteration.check(
        outcome.received == Self.innerCount * Self.perInner && outcome.failure == nil, Self.lossless,
        "\(what): \(outcome.received) values of \(Self.innerCount * Self.perInner), failure "
          + "\(String(describing: outcome.failure))")
    }
    Self.figures.withLock { figures in
      for (thread, outcome) in seen {
        figures.loops += 1
        figures.values += outcome.received
        if outcome.inHand > figures.inHand.count { figures.inHand = (outcome.inHand, plans[thread].limit) }
        figures.overshoot = max(figures.overshoot, outcome.highWaterMark - plans[thread].bound)
        figures.overflow += outcome.overflow
      }
    }
  }

  /// One loop: builds its shape, reads it slowly, and checks each value as it arrives.
  private static func read(_ plan: Plan, workers: [QueueScheduler], sabotaged: Bool) async -> Outcome {
    let tally = InnerTally()
    var outer = Signal<Int, StressFailure>.from(0..<innerCount)
    if sabotaged { outer = BrokenBoundedFlatten.relay(outer) }
    let signal: Signal<Int, StressFailure>
    switch plan.shape {
    case .flatten:
      signal = outer.map { index in
        tally.produced()
        return Signal.from(index * perInner..<(index + 1) * perInner).doCompleted { tally.finished() }
          .subscribe(on: workers[index % 2])
      }.flatten(maxConcurrent: plan.limit)
    case .flattenMap:
      signal = outer.flattenMap(maxConcurrent: plan.limit) { index in
        tally.produced()
        return Signal<Int, StressFailure>.async { subscriber in
          for value in index * perInner..<(index + 1) * perInner { await subscriber.send(value) }
          tally.finished()
        }
      }
    case .concat:
      signal = outer.map { index in
        tally.produced()
        let inner = Signal<Int, StressFailure>.from(index * perInner..<(index + 1) * perInner)
          .doCompleted { tally.finished() }
        return index % 2 == 0 ? inner : inner.subscribe(on: workers[0])
      }.concat()
    }
    var outcome = Outcome()
    var random = SplitMix(seed: plan.seed)
    var next = (0..<innerCount).map { $0 * perInner }  // each inner's next value
    var last = -1
    let loop = BoundedLoop(signal, limit: plan.bound)
    var iterator = loop.makeIterator()
    do throws(StressFailure) {
      while let value = try await iterator.next() {
        let inner = value / perInner
        let inOrder =
          0..<innerCount ~= inner && next[inner] == value && (plan.shape != .concat || value == last + 1)
        if outcome.disorder == nil, !inOrder {
          outcome.disorder = "value #\(outcome.received) is \(value), after \(last)"
        }
        if 0..<innerCount ~= inner { next[inner] = value + 1 }
        last = value
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
    outcome.inHand = tally.highWaterMark
    return outcome
  }
}
