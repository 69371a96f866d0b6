import AsyncSignals
import AsyncSignalsInterop
import Foundation

/// Flow control across a hop (issue 28): slow loops over `.bounded(n)` of `deliver(on:)` a queue,
/// `deliverOnMainThread()` and `deliver(on:)` an `ActorScheduler`. The hop holds at most its own `k` values
/// (`DeliverStorage.hopCapacity`, 32; it reopens at 16), so a source that can pause stays within `n + k` of what the
/// loop has taken; a paused source resumes on its own scheduler, never on the thread that made room in the hop.
///
/// Each crew thread starts one loop in a task of its own and waits for that task to end, so that a loop that never
/// ends holds a crew thread and the watchdog reports it (a watchdog cannot see a suspended task). The hops take turns
/// between the threads, so that every iteration has one loop of each. The source of each loop is chosen at random:
/// - `Signal.from` walked in the loop's task: it pauses on the consumer (and resumes on the loop's thread) or on the
///   full hop (and resumes on the background scheduler, never inside the hop's block);
/// - `Signal.from` walked on a worker queue (`subscribe(on:)`): it pauses and resumes there, whoever made room;
/// - a subject the crew thread sends into, which cannot pause: the hop holds nothing back, and every value reaches
///   the loop, what goes past n and the hop's k counted as the loop's overflow.
/// The bound `n` is small (1–8: the consumer is what pauses the source) or large (16–64: the hop's stage is, and
/// resumes it when it has delivered half its values). Half the loops run to the end; the others leave with `break`
/// or have their task cancelled by the crew thread at a random point, and their source must be released. Now and
/// then the loop stalls the hop's scheduler for a moment, so that the hop fills.
///
/// The Stress executable runs its scenarios on the main thread, whose main queue runs only when that thread lets it
/// (as `ObservationCount` does): there the race runs on a thread of its own while the main thread runs the main
/// queue. In a test process (the self-check) the main queue runs on its own.
///
/// The bound is read from the source's count of what it produced, against what the loop has taken (at most
/// `n + k + 1`: the one in flight), and from the library's instrumented counter,
/// `SignalSequence.Iterator.highWaterMark`, as the other flow-control scenarios read it (at most `n + k`: the hop
/// delivers its values into the loop's buffer whatever its room). The report prints both.
struct BoundedHopRace: Scenario {
  /// `DeliverStorage.hopCapacity` (internal to the library): the values a hop holds, at most, for a source that
  /// can pause.
  static let hopCapacity = 32

  static let withinBound =
    "a source that can pause stays within n + k + 1 values of what the loop has taken, and the loop's buffer never "
    + "holds more than n + k (k = 32, the hop's capacity)"
  static let offTheHop =
    "a paused source resumes on its own scheduler: a walk in the loop's task never produces on the hop's scheduler "
    + "nor on the main queue, a walk on a worker queue only there"
  static let onTheHop = "after the hop, every value arrives with the hop's scheduler as the current scheduler"
  static let lossless =
    "the loop receives 0, 1, 2, … in order, without failure; all of them when it runs to the end (from a subject "
    + "too: the hop holds nothing back)"
  static let released =
    "once the loop has ended (at the end, by break or cancellation), its source is released within 5 s: a walk is "
    + "gone, having produced at most the one value in flight after the end; a subject has no subscriber left"

  let name = "BoundedHop"
  let race =
    "three slow loops over .bounded(n) of deliver(on:) a queue / deliverOnMainThread() / deliver(on:) an "
    + "ActorScheduler, of walks in the task or on a queue or a subject; break and cancel at random points"
  let invariants = [withinBound, offTheHop, onTheHop, lossless, released, BoundedBuffer.overflowAgrees]
  let sabotage = BrokenBoundedHop.description

  func threads(requested: Int) -> Int { 3 }

  enum Hop: Int, CaseIterable {
    case queue, mainQueue, actor

    var label: String {
      switch self {
      case .queue: "deliver(on:) a queue"
      case .mainQueue: "deliverOnMainThread()"
      case .actor: "deliver(on:) an ActorScheduler"
      }
    }
  }

  enum Kind: Int, CaseIterable {
    case fromInTask, fromOnQueue, subject

    var label: String {
      switch self {
      case .fromInTask: "Signal.from in the task"
      case .fromOnQueue: "Signal.from on a queue"
      case .subject: "a subject sent into from a thread"
      }
    }

    var canPause: Bool { self != .subject }
  }

  enum Ending: Sendable {
    case runs
    case breaks(after: Int)
    case cancelled(after: Int)

    var label: String {
      switch self {
      case .runs: "runs to the end"
      case .breaks(let after): "break after \(after)"
      case .cancelled(let after): "cancelled after \(after)"
      }
    }
  }

  struct Plan: Sendable {
    let hop: Hop
    let kind: Kind
    let bound: Int
    let ending: Ending
    let stallsHop: Bool
    /// The twin's bug for this loop, when sabotaged.
    let bug: BrokenBoundedHop.Bug?
    let seed: UInt64

    var label: String {
      "\(hop.label) of \(kind.label), n = \(bound), \(ending.label)" + (bug.map { " (twin: \($0))" } ?? "")
    }
  }

  static let count = 500
  static let subjectCount = 300

  struct Figures {
    var loops = [0, 0, 0]
    var values = 0
    /// The most a source that can pause was ahead of its loop beyond `n`, and the most its buffer held beyond `n`.
    var ahead = 0
    var overshoot = 0
    var stageResumed = 0
    var endedEarly = 0
    var overflow = 0
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "\(figures.loops.reduce(0, +)) loops (queue \(figures.loops[0]), main queue \(figures.loops[1]), actor "
      + "\(figures.loops[2])), \(figures.values) values, \(figures.endedEarly) ended early; sources that pause: "
      + "ahead of the loop by at most \(figures.ahead) beyond n (k + 1 = \(Self.hopCapacity + 1) allowed), buffer "
      + "high-water mark at most \(figures.overshoot) beyond n (k = \(Self.hopCapacity) allowed); "
      + "\(figures.stageResumed) values produced by walks the hop's stage resumed on the background scheduler; "
      + "overflowCount \(figures.overflow) in all"
  }

  /// One loop's source, as it reports itself: what it produced, where, and whether its walk is still alive.
  final class Producer: Sendable {
    let produced = Tally()
    let taken = Tally()
    let made = Tally()
    let released = Tally()
    let onHop = Tally()
    let onMainQueue = Tally()
    let offOwnScheduler = Tally()
    let stageResumed = Tally()
    /// The scheduler the hop delivers on, and the worker a walk on a queue runs on.
    let hop: any Scheduler
    let own: QueueScheduler?

    init(hop: any Scheduler, own: QueueScheduler?) {
      self.hop = hop
      self.own = own
    }

    /// Counts one value produced on the calling thread, and where it was produced.
    func produce() {
      produced.increment()
      let current = Schedulers.current
      if let current, current === hop { onHop.increment() }
      if Thread.isMainThread || current === QueueScheduler.main { onMainQueue.increment() }
      if let own, current !== own { offOwnScheduler.increment() }
      if (current as? QueueScheduler)?.name == "AsyncSignals.background" { stageResumed.increment() }
    }
  }

  struct Outcome: Sendable {
    var received = 0
    var disorder: String?
    var failure: Int?
    var highWaterMark = 0
    var overflow = 0
    /// The most the source was ahead of what the loop had taken.
    var ahead = 0
    var offHop = 0
    /// What the source had produced when the loop ended, and in the end; whether its walk was released.
    var atEnd = 0
    var producedInTheEnd = 0
    var releasedInTime = true
  }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let plans = (0..<3).map { thread -> Plan in
      let kind = Kind(rawValue: random.below(Kind.allCases.count))!
      let count = kind == .subject ? Self.subjectCount : Self.count
      let bound = random.oneIn(2) ? 1 + random.below(8) : 16 + random.below(49)
      let ending: Ending =
        switch random.below(4) {
        case 0: .breaks(after: 1 + random.below(count))
        case 1: .cancelled(after: 1 + random.below(count))
        default: .runs
        }
      return Plan(
        hop: Hop(rawValue: (thread + iteration.number) % Hop.allCases.count)!, kind: kind, bound: bound,
        ending: ending, stallsHop: random.oneIn(2),
        bug: iteration.isSabotaged ? ((thread + iteration.number) % 2 == 0 ? .resumesInline : .ignoresStage) : nil,
        seed: random.next())
    }
    let worker = QueueScheduler(name: "Stress.BoundedHop.worker")
    let hops: [any Scheduler] = [
      QueueScheduler(name: "Stress.BoundedHop.hop"), QueueScheduler.main, ActorScheduler(PlainActor()),
    ]
    let producers = plans.map { Producer(hop: hops[$0.hop.rawValue], own: $0.kind == .fromOnQueue ? worker : nil) }
    let outcomes = LockedBox<[Int: Outcome]>([:])
    whileTheMainQueueRuns {
      iteration.race(withCurrentScheduler: false) { thread, random in
        let plan = plans[thread]
        let producer = producers[thread]
        let subject = plan.kind == .subject ? Subject<Int, StressFailure>() : nil
        let ended = Latch()
        let task = Task.detached {
          let signal = Self.source(plan, producer, subject: subject, worker: worker)
          var outcome = await Self.read(plan, signal, producer)
          outcome.atEnd = producer.produced.value
          outcomes.withLock { $0[thread] = outcome }
          ended.signal()
        }
        if let subject {
          // A source that cannot pause: this thread sends every value, whatever the loop's room.
          _ = waitUntil(seconds: 5) { subject.subscriberCount > 0 || ended.wait(for: 1, seconds: 0) }
          for value in 0..<Self.subjectCount {
            subject.sendNext(value)
            if random.oneIn(32) { random.dawdle(4) }
          }
          subject.sendCompleted()
        }
        if case .cancelled(let after) = plan.ending {
          _ = waitUntil(seconds: 5) { producer.taken.value >= after || ended.wait(for: 1, seconds: 0) }
          random.dawdle(8)
          task.cancel()
        }
        // A crew thread waits for its loop's task: one that never ends holds it, and the watchdog reports it.
        _ = ended.wait(for: 1, seconds: 24 * 3_600)
        let gone = waitUntil(seconds: 5) {
          producer.made.value == producer.released.value && (subject?.subscriberCount ?? 0) == 0
        }
        outcomes.withLock { outcomes in
          outcomes[thread]?.releasedInTime = gone
          outcomes[thread]?.producedInTheEnd = producer.produced.value
        }
        iteration.count(producer.taken.value)
      }
    }
    check(iteration, plans, producers, outcomes.value)
  }

  private func check(_ iteration: Iteration, _ plans: [Plan], _ producers: [Producer], _ seen: [Int: Outcome]) {
    for thread in 0..<3 {
      let plan = plans[thread]
      let producer = producers[thread]
      guard let outcome = seen[thread] else {
        iteration.fail(Self.lossless, "\(plan.label): the loop did not end")
        continue
      }
      let what = plan.label
      if let disorder = outcome.disorder { iteration.fail(Self.lossless, "\(what): \(disorder)") }
      let expected = plan.kind == .subject ? Self.subjectCount : Self.count
      let complete: Bool
      if case .runs = plan.ending { complete = outcome.received == expected } else { complete = true }
      iteration.check(
        complete && outcome.failure == nil, Self.lossless,
        "\(what): \(outcome.received) values of \(expected), failure \(String(describing: outcome.failure))")
      iteration.check(
        outcome.releasedInTime, Self.released,
        "\(what): \(producer.made.value - producer.released.value) walks alive, or a subject with a subscriber, 5 s "
          + "after the loop ended")
      iteration.check(
        outcome.offHop == 0, Self.onTheHop,
        "\(what): \(outcome.offHop) values arrived with another scheduler than the hop's as the current one")
      BoundedBuffer.checkOverflow(
        iteration, BoundedOutcome(highWaterMark: outcome.highWaterMark, overflow: outcome.overflow), limit: plan.bound,
        slack: Self.hopCapacity)
      guard plan.kind.canPause else { continue }
      let limit = plan.bound + Self.hopCapacity
      iteration.check(
        outcome.ahead <= limit + 1 && outcome.highWaterMark <= limit, Self.withinBound,
        "\(what): the source was up to \(outcome.ahead) values ahead of the loop, the buffer held up to "
          + "\(outcome.highWaterMark)")
      let onHop = producer.onHop.value
      let onMainQueue = producer.onMainQueue.value
      let offOwn = producer.offOwnScheduler.value
      iteration.check(
        onHop == 0 && onMainQueue == 0 && offOwn == 0, Self.offTheHop,
        "\(what): \(onHop) values produced on the hop's scheduler, \(onMainQueue) on the main queue, \(offOwn) off "
          + "the walk's own queue")
      if outcome.releasedInTime {
        iteration.check(
          outcome.producedInTheEnd <= outcome.atEnd + 1, Self.released,
          "\(what): the source had produced \(outcome.atEnd) values when the loop ended, "
            + "\(outcome.producedInTheEnd) in the end")
      }
    }
    Self.figures.withLock { figures in
      for (thread, outcome) in seen {
        let plan = plans[thread]
        figures.loops[plan.hop.rawValue] += 1
        figures.values += outcome.received
        if plan.kind.canPause {
          figures.ahead = max(figures.ahead, outcome.ahead - plan.bound)
          figures.overshoot = max(figures.overshoot, outcome.highWaterMark - plan.bound)
        }
        figures.stageResumed += producers[thread].stageResumed.value
        if case .runs = plan.ending {} else { figures.endedEarly += 1 }
        figures.overflow += outcome.overflow
      }
    }
  }

  /// The loop's source.
  private static func source(
    _ plan: Plan, _ producer: Producer, subject: Subject<Int, StressFailure>?, worker: QueueScheduler
  ) -> Signal<Int, StressFailure> {
    let source: Signal<Int, StressFailure>
    switch plan.kind {
    case .fromInTask: source = Signal.from(ProducedRange(count: count, producer: producer))
    case .fromOnQueue: source = Signal.from(ProducedRange(count: count, producer: producer)).subscribe(on: worker)
    case .subject: source = subject ?? .empty
    }
    return source
  }

  /// One loop: its source through its hop (the twin's when sabotaged), checked for the current scheduler after it,
  /// read slowly; it leaves or is cancelled as planned. The iterator lives here, so the loop has ended, as after a
  /// `for await` statement, when it returns.
  private static func read(
    _ plan: Plan, _ source: Signal<Int, StressFailure>, _ producer: Producer
  ) async -> Outcome {
    let hop = producer.hop
    var hopped: Signal<Int, StressFailure>
    if let bug = plan.bug {
      hopped = BrokenBoundedHop.deliver(source, on: hop, bug: bug)
    } else {
      switch plan.hop {
      case .queue, .actor: hopped = source.deliver(on: hop)
      case .mainQueue: hopped = source.deliverOnMainThread()
      }
    }
    let offHop = Tally()
    hopped = hopped.doNext { _ in
      if Schedulers.current !== hop { offHop.increment() }
    }
    var outcome = Outcome()
    var random = SplitMix(seed: plan.seed)
    let loop = BoundedLoop(hopped, limit: plan.bound)
    var iterator = loop.makeIterator()
    do throws(StressFailure) {
      while let value = try await iterator.next() {
        if outcome.disorder == nil, value != outcome.received {
          outcome.disorder = "value #\(outcome.received) is \(value)"
        }
        outcome.received += 1
        producer.taken.increment()
        if plan.kind.canPause {
          outcome.ahead = max(outcome.ahead, producer.produced.value - outcome.received)
        }
        if case .breaks(let after) = plan.ending, outcome.received >= after { break }
        if plan.stallsHop, random.oneIn(24) {
          _ = hop.schedule { for _ in 0..<64 { sched_yield() } }
        }
        if random.oneIn(2) {
          for _ in 0..<random.below(4) { await Task.yield() }
        }
      }
    } catch {
      outcome.failure = error.code
    }
    outcome.highWaterMark = iterator.highWaterMark
    outcome.overflow = iterator.overflowCount
    outcome.offHop = offHop.value
    return outcome
  }
}

/// Runs `body` (a race) while the main queue runs. In the Stress executable the scenarios run on the main thread,
/// whose main queue runs only when that thread lets it (see `ObservationCount`): there `body` runs on a thread of its
/// own and the main thread runs the main queue until it returns. Elsewhere (the self-check, in a test process) the
/// main queue runs on its own, and `body` runs here.
func whileTheMainQueueRuns(_ body: @escaping @Sendable () -> Void) {
  guard Thread.isMainThread else { return body() }
  let done = Flag()
  let thread = Thread {
    body()
    done.set()
  }
  thread.name = "Stress.race"
  thread.start()
  while !done.isSet { _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002)) }
}

/// 0, 1, 2, … below `count`, counting each value produced and where; each iterator holds a token (a walk's lifetime).
private struct ProducedRange: Sequence, Sendable {
  let count: Int
  let producer: BoundedHopRace.Producer

  func makeIterator() -> Iterator { Iterator(count: count, producer: producer, token: WalkToken(producer)) }

  struct Iterator: IteratorProtocol {
    let count: Int
    let producer: BoundedHopRace.Producer
    let token: WalkToken
    var position = 0

    mutating func next() -> Int? {
      guard position < count else { return nil }
      producer.produce()
      defer { position += 1 }
      return position
    }
  }
}

/// Alive while a walk is: counts itself made, and released when it goes.
private final class WalkToken: Sendable {
  let producer: BoundedHopRace.Producer

  init(_ producer: BoundedHopRace.Producer) {
    self.producer = producer
    producer.made.increment()
  }

  deinit { producer.released.increment() }
}
