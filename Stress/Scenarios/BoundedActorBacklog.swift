import AsyncSignals
import AsyncSignalsInterop

/// Bounded delivery into an actor, its bound measured outside the engine: one source that can pause into a slow actor
/// with `.bounded(n)`, n from 2 to 64, and in each callback the values the source has produced minus the callbacks
/// that have run before this one.
///
/// The engine counts a value from its arrival until its callback has run, and gives back only values whose callbacks
/// have run; so at any callback at most `n` values have arrived and not been called back, and one source that checks
/// for room before each value has at most one more in hand: produced - (callbacks before this one) <= n + 1. That is
/// measured from the source's side (a counter it bumps before handing each value on, sequentially consistent), not
/// read from the engine's own count, which a wrong engine gets wrong with the rest.
///
/// The source, in turn: a `Signal.from` walk subscribed on a queue of its own; a walk subscribed in a task (resumed at
/// once where the room is made: on the actor's drain); a `Signal.async` body's `await subscriber.send`; one task's
/// `await subject.send`. The actor is a default actor or a `QueueScheduler`-backed one, in turn; its callback spins 2
/// to 16 µs, so that a source on another thread has time to refill while the actor works. Threads 1 and 2 run other
/// jobs on the actor meanwhile. Thread 0 waits 10 s at most for the completion.
///
/// The twin (`EarlyReopeningActorBound`) gives back what its job takes as it takes it: its own count, and so its
/// `highWaterMark`, stays within n, while the source refills up to n more values behind the batch being delivered.
struct BoundedActorBacklogRace: Scenario {
  static let backlog =
    "at each callback, the values the source produced minus the callbacks run before it are at most n + 1 (n waiting, "
    + "one in the source's hands)"
  static let figures = "the figures agree: highWaterMark <= n, overflowCount == 0, droppedCount == 0"
  static let lossless = "every value is delivered once, in order, then the completion, within 10 s"

  let name = "BoundedActorBacklog"
  let race =
    "a walk (on its queue / in a task), an async body or a task's await send into a slow actor with .bounded(2...64), "
    + "the backlog measured at the source"
  let invariants = [Delivery.serial, backlog, figures, lossless]
  let sabotage = EarlyReopeningActorBound.description

  func threads(requested: Int) -> Int { 3 }

  enum Source: String, CaseIterable {
    case walkOnQueue = "a walk on its queue"
    case walkInTask = "a walk subscribed in a task"
    case asyncBody = "an async body"
    case subjectTask = "a task's await subject.send"
  }

  static let bounds = [2, 3, 4, 5, 8, 13, 16, 24, 32, 50, 64]

  /// The largest backlog measured past n, per source.
  static let worst = LockedBox([Int](repeating: Int.min, count: Source.allCases.count))

  var report: String? {
    let worst = Self.worst.value
    return zip(Source.allCases, worst).map { source, worst in
      "\(source.rawValue): " + (worst == Int.min ? "not run" : "backlog up to n \(worst < 0 ? "-" : "+") \(abs(worst))")
    }.joined(separator: "; ")
  }

  func iterate(_ iteration: Iteration) {
    if iteration.number % 2 == 0 {
      run(iteration, actor: PlainActor())
    } else {
      run(iteration, actor: QueueBackedActor(name: "Stress.BoundedActorBacklog"))
    }
  }

  private func run<A: Actor>(_ iteration: Iteration, actor: A) {
    var setup = iteration.random()
    let source = Source.allCases[iteration.number / 2 % Source.allCases.count]
    let n = Self.bounds[setup.below(Self.bounds.count)]
    let count = max(300, 8 * n) + setup.below(300)
    let gauge = SourceGauge()
    let tally = ActorTally<A>(work: 2 + setup.below(15)) { log in
      log.backlog = max(log.backlog, gauge.produced - (log.received.count - 1))
    }
    let bug: TwinBoundedDelivery<A, Int>.Bug? = iteration.isSabotaged ? .reopensBeforeGivingBack : nil
    let subject = Subject<Int, StressFailure>()
    let subscription: any BoundedActorSubscription
    switch source {
    case .walkOnQueue:
      let walker = QueueScheduler(name: "Stress.BoundedActorBacklog.walk")
      subscription = subscribeBounded(
        Signal.from(GaugedRange(count: count, gauge: gauge)).subscribe(on: walker), isolatedTo: actor,
        policy: .bounded(n), twin: bug, tally)
    case .walkInTask:
      let made = Mailbox<any BoundedActorSubscription>()
      Task.detached {
        made.post(
          subscribeBounded(
            Signal.from(GaugedRange(count: count, gauge: gauge)), isolatedTo: actor, policy: .bounded(n), twin: bug,
            tally))
      }
      subscription = made.take()
    case .asyncBody:
      let body = Signal<Int, StressFailure>.async { subscriber in
        for value in 0..<count {
          gauge.produce()
          await subscriber.send(value)
          if Task.isCancelled { return }
        }
      }
      subscription = subscribeBounded(body, isolatedTo: actor, policy: .bounded(n), twin: bug, tally)
    case .subjectTask:
      subscription = subscribeBounded(subject, isolatedTo: actor, policy: .bounded(n), twin: bug, tally)
    }
    let done = Flag()
    iteration.race { thread, random in
      guard thread == 0 else {
        while !done.isSet {
          onActor(actor) { _ in spin(microseconds: 3) }
          random.dawdle(4)
        }
        return
      }
      if source == .subjectTask {
        Task.detached {
          for value in 0..<count {
            gauge.produce()
            await subject.send(value)
          }
          subject.sendCompleted()
        }
      }
      iteration.check(
        waitUntil { tally.ends.load() >= 1 }, Self.lossless,
        "\(source.rawValue), n = \(n): no completion within 10 s; \(gauge.produced) of \(count) produced, "
          + "\(tally.delivered.load()) delivered")
      done.set()
    }
    let log = tally.final(on: actor)
    subscription.dispose()
    subject.sendCompleted()  // frees the task, should it still wait
    tally.checkTerminal(iteration, log, invariant: Self.lossless)
    if let problem = sequenceProblem(log.received, Array(0..<count), what: "produced") {
      iteration.fail(Self.lossless, "\(source.rawValue), n = \(n): \(problem)")
    }
    iteration.check(
      log.backlog <= n + 1, Self.backlog,
      "\(source.rawValue), n = \(n): \(log.backlog) values produced and not yet called back at one callback")
    let (mark, overflow, dropped) = (subscription.highWaterMark, subscription.overflowCount, subscription.droppedCount)
    iteration.check(
      mark <= n && overflow == 0 && dropped == 0, Self.figures,
      "\(source.rawValue), n = \(n): highWaterMark \(mark), overflowCount \(overflow), droppedCount \(dropped)")
    iteration.count(log.received.count)
    let index = Source.allCases.firstIndex(of: source) ?? 0
    Self.worst.withLock { $0[index] = max($0[index], log.backlog - n) }
  }
}
