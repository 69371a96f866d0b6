import AsyncSignals
import AsyncSignalsInterop

/// Flow control: loops over `.bounded(n)` end (their task cancelled, or `break`) while their producers are paused or
/// suspended, waiting for room; ending the loop must release them at once (issue 19).
///
/// Each iteration runs six loops, each in its own task, over a source of a million values 0, 1, 2, … that can wait
/// for room, through a bounded buffer (n from 1 to 4), taking values slowly (yielding now and then). The kinds of
/// source take turns:
/// - `Signal.from`, through `map`, walked in the loop's own task (it pauses, and resumes when the loop has taken
///   the buffer down to half);
/// - `Signal.from`, through `map` and `subscribe(on:)` a queue: walked on the queue, paused and resumed there, while
///   the loop runs on the pool;
/// - a `Signal.async` body that sends with `await subscriber.send(_:)` (it suspends while the buffer is full) and
///   stops when its task is cancelled, as the documentation asks;
/// - an `AsyncSequence`'s `signal` (its pump suspends in `send` the same way).
/// Each source counts the values it produces, and holds a token for as long as it is alive: the iterator of the
/// walk, the body while it runs, the pump's iterator. A loop ends in one of three ways, chosen per loop: thread 1 or
/// 2 cancels its task; the loop leaves with `break` after a few values; or both, racing. Half the time the party
/// that ends the loop first waits (a bounded while) until the producer is paused: more than half the bound ahead of
/// what the loop took (the demand closes when the buffer is full and reopens at half).
///
/// "The loop has ended" is the moment its iterator is gone, as after a `for await` statement: the iterator lives in
/// a function of its own, and what the source had produced is read when that function has returned. The source may
/// have one value in flight then (read from the iterator, or passed to `send`, just before the disposal reached it);
/// anything more was produced after the end. A source running while its loop ends stops at the bound: the buffer
/// closes its demand before it disposes the subscription, so the source produces at most what the loop took, the
/// bound and one in flight; the report prints the most it ever went past that (0 when the invariant holds).
///
/// The twin's loops end too, but the producers they leave behind wait for room for good: a paused walk stays
/// registered with the demand (and allocated), a suspended body or pump never returns.
struct BoundedCancellationRace: Scenario {
  static let ends = "every loop ends, once, within 10 s of its cancellation or break"
  static let released =
    "every paused source and suspended producer is released once its loop has ended (the walk's iterator, the "
    + "async body and the pump are gone within 5 s)"
  static let nothingAfter =
    "nothing is produced after the loop has ended: once its iterator is gone, its source produces at most the one "
    + "value it had in flight"
  static let values = "each loop receives 0, 1, 2, … in order: nothing lost"
  static let stopsAtBound =
    "a source stops at the bound while its loop ends too: it produces at most what the loop took, the bound and one "
    + "in flight (produced ≤ taken + n + 1)"

  let name = "BoundedCancellation"
  let race = "six loops over .bounded(n) of pausable sources end (task cancel / break) while their producers wait"
  let invariants = [Self.ends, Self.released, Self.nothingAfter, Self.values, Self.stopsAtBound]
  let sabotage = UnwokenProducers.description

  func threads(requested: Int) -> Int { 3 }

  enum Kind: Int, CaseIterable {
    case fromInTask, fromOnQueue, asyncBody, asyncSequence

    var label: String {
      switch self {
      case .fromInTask: "Signal.from in the loop's task"
      case .fromOnQueue: "Signal.from subscribed on a queue"
      case .asyncBody: "Signal.async body"
      case .asyncSequence: "AsyncSequence.signal"
      }
    }
  }

  /// How one loop ends.
  struct Plan: Sendable {
    let kind: Kind
    let limit: Int
    /// The loop leaves with `break` after this many values.
    let leaveAfter: Int?
    /// Thread 1 or 2 cancels the loop's task.
    let cancelled: Bool
    /// Whoever ends the loop first waits (a bounded while) for the producer to be paused.
    let waitForPause: Bool
    let seed: UInt64
  }

  /// One loop's producer, as its source reports it.
  struct Producer: Sendable {
    let produced = Tally()
    let made = Tally()
    let released = Tally()
    let taken = Tally()
    /// What it had produced when the loop ended.
    let atEnd = LockedBox<Int?>(nil)

    /// The producer is more than half the bound ahead of the loop: the demand closes when the buffer is full and
    /// reopens when the loop has taken it down to half, so the producer is paused (or about to be).
    func isPaused(limit: Int) -> Bool { produced.value - taken.value > limit / 2 }
  }

  struct Figures {
    var loops = 0
    var cancelled = 0
    var left = 0
    var pausedAtEnd = 0
    /// The most values a source produced beyond what its loop took, the bound and one in flight.
    var runOn = 0
  }

  /// The run's figures.
  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "\(figures.loops) loops ended (\(figures.cancelled) by cancellation, \(figures.left) by break, some both); "
      + "\(figures.pausedAtEnd) of them with the producer paused; a source running while "
      + "its loop was ending produced up to \(figures.runOn) values beyond what the loop took, the bound and one in "
      + "flight"
  }

  static let count = 1_000_000

  func iterate(_ iteration: Iteration) {
    let loops = 6
    var random = iteration.random()
    let plans = (0..<loops).map { loop -> Plan in
      let limit = 1 + random.below(4)
      let ending = random.below(3)  // 0: cancelled, 1: break, 2: both
      return Plan(
        kind: Kind(rawValue: (loop + iteration.number) % Kind.allCases.count)!, limit: limit,
        leaveAfter: ending == 0 ? nil : 1 + random.below(3 * limit + 2), cancelled: ending != 1,
        waitForPause: random.oneIn(2), seed: random.next())
    }
    let producers = (0..<loops).map { _ in Producer() }
    let worker = QueueScheduler(name: "Stress.BoundedCancellation.worker")
    let sabotaged = iteration.isSabotaged
    let tasks = Slots<Task<Void, Never>>(capacity: loops)
    let outcomes = LockedBox<[Int: (values: [Int], ends: Int)]>([:])
    let ended = (0..<loops).map { _ in Flag() }
    let allEnded = Latch()
    let pausedAtEnd = Tally()
    let runOn = LockedBox(0)
    iteration.race(withCurrentScheduler: false) { thread, random in
      switch thread {
      case 0:
        for loop in 0..<loops {
          let plan = plans[loop]
          let producer = producers[loop]
          tasks.publish(
            Task.detached {
              let signal = Self.source(plan.kind, producer, worker: worker, sabotaged: sabotaged)
              let values = await Self.read(signal, plan, producer, sabotaged: sabotaged, pausedAtEnd: pausedAtEnd)
              outcomes.withLock { $0[loop] = (values, ($0[loop]?.ends ?? 0) + 1) }
              ended[loop].set()
              allEnded.signal()
            })
        }
        if !allEnded.wait(for: loops, seconds: 10) {
          let stuck = (0..<loops).filter { !ended[$0].isSet }.map { "\($0) (\(plans[$0].kind.label))" }
          iteration.fail(Self.ends, "loops \(stuck) had not ended within 10 s")
        }
        iteration.count(loops)
      default:
        for loop in 0..<loops where plans[loop].cancelled && loop % 2 == thread - 1 {
          while tasks.count <= loop { random.dawdle(1) }
          if plans[loop].waitForPause {
            let producer = producers[loop]
            _ = waitUntil(seconds: 0.05) { producer.isPaused(limit: plans[loop].limit) || ended[loop].isSet }
            if producer.isPaused(limit: plans[loop].limit) && !ended[loop].isSet { pausedAtEnd.increment() }
          }
          random.dawdle(16)
          tasks[loop].cancel()
          iteration.count(1)
        }
      }
    }
    drainBackgroundScheduler(iteration)
    let outcome = outcomes.value
    let allGone = waitUntil(seconds: 5) { producers.allSatisfy { $0.made.value == $0.released.value } }
    for loop in 0..<loops {
      let plan = plans[loop]
      let producer = producers[loop]
      let what =
        "loop \(loop) (\(plan.kind.label), bound \(plan.limit)"
        + (plan.cancelled ? ", cancelled" : "") + (plan.leaveAfter.map { ", break after \($0)" } ?? "") + ")"
      guard let (values, ends) = outcome[loop] else { continue }
      iteration.check(ends == 1, Self.ends, "\(what) ended \(ends) times")
      iteration.check(
        values == Array(0..<values.count), Self.values, "\(what) received \(values.prefix(20)) …, not 0, 1, 2, …")
      let gone = allGone || producer.made.value == producer.released.value
      iteration.check(
        gone, Self.released,
        "\(what): \(producer.made.value - producer.released.value) of its producers were still alive 5 s after the "
          + "loop ended")
      guard gone else { continue }
      let produced = producer.produced.value
      let atEnd = producer.atEnd.value ?? 0
      iteration.check(
        produced <= atEnd + 1, Self.nothingAfter,
        "\(what): its source had produced \(atEnd) values when the loop ended, \(produced) in the end")
      let taken = producer.taken.value
      runOn.withLock { $0 = max($0, produced - (taken + plan.limit + 1)) }
      iteration.check(
        produced <= taken + plan.limit + 1, Self.stopsAtBound,
        "\(what): its source produced \(produced) values; the loop took \(taken)")
    }
    Self.figures.withLock { figures in
      figures.loops += loops
      figures.cancelled += plans.filter(\.cancelled).count
      figures.left += plans.filter { $0.leaveAfter != nil }.count
      figures.pausedAtEnd += pausedAtEnd.value
      figures.runOn = max(figures.runOn, runOn.value)
    }
  }

  /// The loop: reads slowly, leaves after `plan.leaveAfter` values if set; returns what it received, once the
  /// loop has ended, and records what the source had produced by then.
  private static func read(
    _ signal: Signal<Int, StressFailure>, _ plan: Plan, _ producer: Producer, sabotaged: Bool, pausedAtEnd: Tally
  ) async -> [Int] {
    let loop = BoundedLoop(signal, limit: plan.limit, twin: sabotaged ? .forgetsDemandWhenCancelled : nil)
    let values = await take(loop, plan, producer, pausedAtEnd: pausedAtEnd)
    // The iterator lived in `take`: it is gone, and the loop has ended, as after a `for await` statement.
    producer.atEnd.value = producer.produced.value
    return values
  }

  /// The loop itself; its iterator lives here, and returning drops it, as leaving a `for await` statement does.
  private static func take(
    _ loop: BoundedLoop, _ plan: Plan, _ producer: Producer, pausedAtEnd: Tally
  ) async -> [Int] {
    var random = SplitMix(seed: plan.seed)
    var iterator = loop.makeIterator()
    var values: [Int] = []
    do throws(StressFailure) {
      while let value = try await iterator.next() {
        values.append(value)
        producer.taken.increment()
        if let leaveAfter = plan.leaveAfter, values.count >= leaveAfter {
          if plan.waitForPause {
            for _ in 0..<200 where !producer.isPaused(limit: plan.limit) { await Task.yield() }
            if producer.isPaused(limit: plan.limit) { pausedAtEnd.increment() }
          }
          break
        }
        if random.oneIn(2) {
          for _ in 0..<random.below(6) { await Task.yield() }
        }
      }
    } catch {
      return values
    }
    return values
  }

  /// The source of one loop, counting what it produces and holding a token while it lives.
  private static func source(
    _ kind: Kind, _ producer: Producer, worker: QueueScheduler, sabotaged: Bool
  ) -> Signal<Int, StressFailure> {
    switch kind {
    case .fromInTask:
      return Signal.from(CountedRange(count: count, producer: producer)).map { $0 }
    case .fromOnQueue:
      return Signal.from(CountedRange(count: count, producer: producer)).map { $0 }.subscribe(on: worker)
    case .asyncBody:
      let body: @Sendable (_ send: @escaping @Sendable (Int) async -> Void) async -> Void = { send in
        let token = Token(producer)
        for value in 0..<count {
          producer.produced.increment()
          await send(value)
          if Task.isCancelled { break }
        }
        withExtendedLifetime(token) {}
      }
      if sabotaged { return UnwokenProducers.async(body) }
      return Signal<Int, StressFailure>.async { subscriber in
        await body { value in await subscriber.send(value) }
      }
    case .asyncSequence:
      let sequence = CountedAsyncRange(count: count, producer: producer)
      if sabotaged { return UnwokenProducers.signal(of: sequence) }
      return sequence.signal.promoteError(to: StressFailure.self)
    }
  }
}

/// Alive while a producer is: counts itself made, and released when it goes.
private final class Token: Sendable {
  let producer: BoundedCancellationRace.Producer

  init(_ producer: BoundedCancellationRace.Producer) {
    self.producer = producer
    producer.made.increment()
  }

  deinit { producer.released.increment() }
}

/// 0, 1, 2, … below `count`, counting the values taken from it; each iterator holds a token (a walk's lifetime).
private struct CountedRange: Sequence, Sendable {
  let count: Int
  let producer: BoundedCancellationRace.Producer

  func makeIterator() -> Iterator { Iterator(count: count, producer: producer, token: Token(producer)) }

  struct Iterator: IteratorProtocol {
    let count: Int
    let producer: BoundedCancellationRace.Producer
    let token: Token
    var position = 0

    mutating func next() -> Int? {
      guard position < count else { return nil }
      producer.produced.increment()
      defer { position += 1 }
      return position
    }
  }
}

/// The async twin of `CountedRange`: its iterator is the pump's.
private struct CountedAsyncRange: AsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = Never

  let count: Int
  let producer: BoundedCancellationRace.Producer

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(count: count, producer: producer, token: Token(producer))
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    let count: Int
    let producer: BoundedCancellationRace.Producer
    let token: Token
    var position = 0

    mutating func next() async -> Int? {
      guard position < count else { return nil }
      producer.produced.increment()
      defer { position += 1 }
      return position
    }

    mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
      await next()
    }
  }
}
