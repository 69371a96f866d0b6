import AsyncSignals
import AsyncSignalsInterop

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Bounded delivery into an actor with `.bounded(n)` for n of 1, 2 or 3, so that nearly every value closes the
/// demand and nearly every callback reopens it: a paused source's resumption races the actor's drain, and disposal
/// from another thread races both, at random points.
///
/// The source is one that can pause, in turn:
/// - a `Signal.from` walk subscribed on a queue of its own: its resumption schedules the walk there again (half the
///   iterations);
/// - a `Signal.from` walk subscribed in a task: its resumption runs the walk at once where the room was made, on the
///   actor's drain itself (or on the thread that disposes);
/// - a `Signal.async` body that `await subscriber.send`s, suspended while there is no room.
/// The actor is a default actor or a `QueueScheduler`-backed one, in turn; its callback spins 0 to 3 µs. Thread 1
/// disposes (a third of the iterations do not): from its own thread once a random number of values has arrived,
/// then it waits for one more job of the actor; or in a job on the actor; or the callback at that value disposes.
/// Thread 2 runs other jobs on the actor meanwhile. Thread 0 waits until the source has ended — completed, or
/// released once disposed (its iterator freed, or the async body returned; or never started, disposed first) — and
/// reports a hang when nothing has moved (values produced or delivered) for 10 s: the watchdog cannot see a paused
/// source, which holds no thread.
///
/// The twin (`UnresumedActorBound`) reopens without running the resumptions: the first source to pause for good
/// stops the iteration, which thread 0 reports.
struct BoundedActorResumeRace: Scenario {
  static let noHang =
    "no hang: a source that paused is always resumed, or finds its subscription ended (it completes, or is released "
    + "once disposed; nothing moving for 10 s is a hang)"
  static let lossless = "the values delivered are 0, 1, 2, … in order, none skipped; all of them before a completion"
  static let afterDispose =
    "nothing is delivered after dispose() returned on the actor (in a callback or another job), nor after one more "
    + "job of the actor once it returned elsewhere"
  static let terminal = "the completion at most once and last; exactly once unless the subscription was disposed first"
  static let bound = "one source that pauses: highWaterMark <= n, overflowCount == 0"

  let name = "BoundedActorResume"
  let race =
    "a Signal.from walk (on its queue / in a task) or an async body into an actor with .bounded(1...3), disposed "
    + "from another thread, on the actor or in a callback at random points"
  let invariants = [Delivery.serial, noHang, lossless, afterDispose, terminal, bound]
  let sabotage = UnresumedActorBound.description

  func threads(requested: Int) -> Int { 3 }

  enum Source: String {
    case walkOnQueue = "a walk on its queue"
    case walkInTask = "a walk subscribed in a task"
    case asyncBody = "an async body"
  }

  enum Disposal {
    case none
    case outside(at: Int)
    case onActor(at: Int)
    case inCallback(at: Int)
  }

  struct Figures {
    var iterations = [0, 0, 0]  // completed, disposed, disposed after the end
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "\(figures.iterations[0]) sources completed, \(figures.iterations[1]) disposed while running, "
      + "\(figures.iterations[2]) disposed after their completion"
  }

  func iterate(_ iteration: Iteration) {
    if iteration.number % 2 == 0 {
      run(iteration, actor: PlainActor())
    } else {
      run(iteration, actor: QueueBackedActor(name: "Stress.BoundedActorResume"))
    }
  }

  private func run<A: Actor>(_ iteration: Iteration, actor: A) {
    var setup = iteration.random()
    let n = 1 + setup.below(3)
    let count = 100 + setup.below(400)
    let source: Source = [.walkOnQueue, .walkOnQueue, .walkInTask, .asyncBody][setup.below(4)]
    let at = setup.below(count + count / 4)  // values delivered first; past `count`: after the completion
    let disposal: Disposal = [.none, .none, .outside(at: at), .outside(at: at), .onActor(at: at), .inCallback(at: at)][
      setup.below(6)]
    let gauge = SourceGauge()
    let disposed = Flag()  // set once a dispose() has returned
    let holder = LockedBox<(any BoundedActorSubscription)?>(nil)
    let tally = ActorTally<A>(work: setup.below(4)) { log in
      // Taken only at the chosen value: a lock on every callback would order them for ThreadSanitizer.
      guard case .inCallback(let at) = disposal, log.received.count == at + 1 else { return }
      guard let subscription = holder.value else { return }
      subscription.dispose()
      log.disposalSeen = true
      disposed.set()
    }
    let subscription = subscribe(source, count: count, n: n, gauge: gauge, actor: actor, iteration, tally)
    holder.value = subscription
    let finished = Flag()
    iteration.race { thread, random in
      switch thread {
      case 0:
        let ended = wait(for: source, gauge: gauge, tally: tally, disposed: disposed)
        iteration.check(
          ended, Self.noHang,
          "\(source.rawValue), n = \(n): nothing moved for 10 s; \(gauge.produced) of \(count) produced, "
            + "\(tally.delivered.load()) delivered, \(tally.ends.load()) completions, disposed: \(disposed.isSet)")
        if !ended { subscription.dispose() }  // lets the rest of the crew go
        finished.set()
      case 1:
        switch disposal {
        case .outside(let at):
          while tally.delivered.load() < at, tally.ends.load() == 0, !finished.isSet { random.dawdle(2) }
          subscription.dispose()
          disposed.set()
          onActor(actor) { _ in tally.log.value.disposalSeen = true }
        case .onActor(let at):
          while tally.delivered.load() < at, tally.ends.load() == 0, !finished.isSet { random.dawdle(2) }
          onActor(actor) { _ in
            subscription.dispose()
            tally.log.value.disposalSeen = true
          }
          disposed.set()
        case .none, .inCallback: break
        }
      default:
        while !finished.isSet {
          onActor(actor) { _ in spin(microseconds: 1) }
          random.dawdle(4)
        }
      }
    }
    let log = tally.final(on: actor)
    subscription.dispose()
    let completed = log.terminals > 0
    tally.checkTerminal(iteration, log, invariant: Self.terminal, expected: !disposed.isSet)
    if let problem = sequenceProblem(log.received, Array(0..<log.received.count), what: "as a prefix") {
      iteration.fail(Self.lossless, "\(source.rawValue), n = \(n): \(problem)")
    }
    iteration.check(
      !completed || log.received.count == count, Self.lossless,
      "\(source.rawValue), n = \(n): completed after \(log.received.count) of \(count) values")
    if let late = log.afterDisposal.first {
      iteration.fail(
        Self.afterDispose,
        "\(source.rawValue), n = \(n), \(disposal): \(log.afterDisposal.count) values delivered after the disposal "
          + "(the first: \(late))")
    }
    let (mark, overflow) = (subscription.highWaterMark, subscription.overflowCount)
    iteration.check(
      mark <= n && overflow == 0, Self.bound,
      "\(source.rawValue), n = \(n): highWaterMark \(mark), overflowCount \(overflow)")
    iteration.count(log.received.count)
    Self.figures.withLock { figures in
      figures.iterations[completed ? (disposed.isSet ? 2 : 0) : 1] += 1
    }
  }

  /// Subscribes the source, in a task for a walk that must resume where the room is made.
  private func subscribe<A: Actor>(
    _ source: Source, count: Int, n: Int, gauge: SourceGauge, actor: A, _ iteration: Iteration,
    _ tally: ActorTally<A>
  ) -> any BoundedActorSubscription {
    let bug: TwinBoundedDelivery<A, Int>.Bug? = iteration.isSabotaged ? .reopensWithoutResuming : nil
    switch source {
    case .walkOnQueue:
      let walker = QueueScheduler(name: "Stress.BoundedActorResume.walk")
      return subscribeBounded(
        Signal.from(GaugedRange(count: count, gauge: gauge)).subscribe(on: walker), isolatedTo: actor,
        policy: .bounded(n), twin: bug, tally)
    case .walkInTask:
      // In a task, the walk runs at once until it pauses, and each resumption runs it at once where it is called.
      let made = Mailbox<any BoundedActorSubscription>()
      Task.detached {
        made.post(
          subscribeBounded(
            Signal.from(GaugedRange(count: count, gauge: gauge)), isolatedTo: actor, policy: .bounded(n), twin: bug,
            tally))
      }
      return made.take()
    case .asyncBody:
      let body = Signal<Int, StressFailure>.async { subscriber in
        gauge.start()
        defer { gauge.end() }
        for value in 0..<count {
          gauge.produce()
          await subscriber.send(value)
          if Task.isCancelled { return }
        }
      }
      return subscribeBounded(body, isolatedTo: actor, policy: .bounded(n), twin: bug, tally)
    }
  }

  /// Waits until the source has ended: completed and released, or disposed and released. Answers `false` when
  /// nothing moved for 10 s first.
  private func wait<A: Actor>(
    for source: Source, gauge: SourceGauge, tally: ActorTally<A>, disposed: Flag
  ) -> Bool {
    let clock = ContinuousClock()
    var last = (produced: -1, delivered: -1, disposed: false)
    var moved = clock.now
    while true {
      if gauge.isIdle, tally.ends.load() > 0 || disposed.isSet { return true }
      let now = (produced: gauge.produced, delivered: tally.delivered.load(), disposed: disposed.isSet)
      if now != last {
        last = now
        moved = clock.now
      } else if clock.now - moved > .seconds(10) {
        return false
      }
      sched_yield()
    }
  }
}
