import AsyncSignals
import Dispatch
import Synchronization

/// A steady flood into an actor through `subscribeNext(isolatedTo:)` while other work on the actor is timed (issue
/// 20, defect 2: a delivery job runs at most one budget of callbacks, then lets the actor's other work run).
///
/// Thread 0 sends 0, 1, … 2999 into a subject, one value every 4 µs by the clock (catching up when it falls behind),
/// and samples the backlog (sent minus delivered) after each send. The subscription's callback spins on the clock
/// for 20 µs (the issue's figure), so the backlog grows while the producer runs. Thread 1 meanwhile awaits an actor
/// method, `ping`, again and again, from a `Task` at the subscription's priority (`.medium`: the subscription is made
/// outside any task), and measures how many callbacks ran between the moment it issued the ping and the moment the
/// ping ran, and the ping's latency. The actor is a default actor on even iterations and a `QueueScheduler`-backed
/// one on odd iterations.
///
/// The bound, from the budget B (`isolatedDeliveryBudget`, 128). The callbacks count themselves as they finish.
/// Thread 1 reads the count (`c0`), issues the ping with `Task.immediate`, which runs the task on thread 1 up to its
/// first suspension, the hop onto the actor, so that the ping's job is enqueued on the actor before `Task.immediate`
/// returns, and reads the count again (`c0'`); the ping reads it when it runs (`c1`). At the enqueue, the delivery job
/// running on the actor (or waiting first in its queue) has at most B callbacks of its budget left, the one under way
/// included. The job that delivers after it (its continuation, or a new job) is enqueued once it has spent them, so
/// behind the ping: Dispatch runs a `QueueScheduler`'s blocks first in, first out, and a default actor runs jobs of
/// equal priority in the order they came (the delivery `Task`'s `yield()`, at the subscription's priority, lets the
/// ping's job in). So at most B callbacks finish between the enqueue and the ping, and
/// `c1 - c0 <= B + (c0' - c0)`, where `c0' - c0` are the callbacks already under way, which finished while the ping
/// was being issued (hundreds when thread 1 is preempted there). The invariant allows `B + B / 4 + (c0' - c0)`, a
/// safety factor of 1.25 on the budget for what the derivation may have missed (runs measured exactly B at worst
/// after the enqueue); the broken twin, which holds the actor until its queue is empty, runs the backlog ahead of a
/// ping issued early in the flood (800 to 3000 callbacks in TSan runs). (Where `Task.immediate` is missing, Apple
/// OSes before 26, a plain `Task` enqueues later than `c0'` is read, and the check may fail spuriously there; Stress
/// runs on Linux.)
///
/// Figures, printed and not asserted: per kind of actor, the worst latency of a ping issued behind a backlog of at
/// least one budget (from before `Task.immediate` to the ping's run, so it includes any preemption of thread 1) and
/// the most callbacks between a ping's issue (and its enqueue) and its run; and the backlog's high-water mark.
struct ActorFloodRace: Scenario {
  /// The library's budget per delivery job (`isolatedDeliveryBudget`, package access).
  static let budget = isolatedDeliveryBudget
  static let allowed = budget + budget / 4

  static let bounded =
    "an actor method awaited during a flood runs after at most one budget (\(budget)) of callbacks, plus those under way "
    + "when it was issued (allowed: \(allowed) + those)"
  static let inOrder = "every value arrives once, in the order sent"

  let name = "ActorFlood"
  let race =
    "a producer floods an actor (default / QueueScheduler-backed) through isolated delivery; another awaits its methods"
  let invariants = [bounded, inOrder, Delivery.serial]
  let sabotage = GreedyDrain.description

  static let values = 3000
  static let sendInterval = Duration.microseconds(4)
  static let callbackSpin = Duration.microseconds(20)

  func threads(requested: Int) -> Int { 2 }

  /// The worst of a kind of actor, over the run.
  struct Worst: Sendable {
    /// The worst latency of a ping issued behind a backlog of at least one budget, and that backlog.
    var latency = Duration.zero
    var backlogAtIssue = 0
    /// The most callbacks between a ping's issue and its run, and between its enqueue (`issued`) and its run.
    var sinceIssue = 0
    var sinceEnqueue = 0
    var pings = 0
  }

  static let worst = LockedBox([Worst(), Worst()])
  static let highWaterMark = Atomic<Int>(0)

  var report: String? {
    let worst = Self.worst.value
    func describe(_ kind: String, _ worst: Worst) -> String {
      let latency = worst.latency.components
      let milliseconds = Double(latency.seconds) * 1e3 + Double(latency.attoseconds) / 1e15
      return "\(kind): worst ping latency behind a backlog \(String(format: "%.2f", milliseconds)) ms (issued behind "
        + "\(worst.backlogAtIssue) values); at most \(worst.sinceIssue) callbacks between a ping's issue and its run, "
        + "\(worst.sinceEnqueue) after its enqueue (\(worst.pings) pings)"
    }
    return describe("default actor", worst[0]) + "; " + describe("QueueScheduler actor", worst[1])
      + "; backlog high-water mark \(Self.highWaterMark.load(ordering: .relaxed)) values"
  }

  /// What the callbacks record; touched only in the actor's isolation.
  struct Log {
    var count = 0
    var disorder: (value: Int, due: Int)?
  }

  /// One ping: the callback count before issuing it (`before`), right after (`issued`), and when it ran (`ran`).
  struct Ping: Sendable {
    let before: Int
    let issued: Int
    let ran: Int
    let backlog: Int
    let latency: Duration
  }

  func iterate(_ iteration: Iteration) {
    if iteration.number % 2 == 0 {
      run(iteration, actor: PlainActor(), kind: 0)
    } else {
      run(iteration, actor: QueueBackedActor(name: "Stress.ActorFlood"), kind: 1)
    }
  }

  private func run<A: Actor>(_ iteration: Iteration, actor: A, kind: Int) {
    let subject = Subject<Int, StressFailure>()
    let detector = OverlapDetector()
    let log = SerialState(Log())
    let delivered = Progress()
    let sent = Progress()
    let next: @Sendable (isolated A, Int) -> Void = { _, value in
      guard detector.enter() else { return }
      defer { detector.exit() }
      let end = ContinuousClock.now.advanced(by: Self.callbackSpin)
      while ContinuousClock.now < end {}  // busy: a spin, not a sleep
      if value != log.value.count, log.value.disorder == nil { log.value.disorder = (value, log.value.count) }
      log.value.count += 1
      delivered.store(log.value.count)
    }
    let subscription =
      iteration.isSabotaged
      ? GreedyDrain.subscribeNext(subject, isolatedTo: actor, next)
      : subject.subscribeNext(isolatedTo: actor, next, error: { _, _ in }, completed: { _ in })
    let producerDone = Flag()
    let mark = Owned(0)
    let pings = Owned<[Ping]>([])
    iteration.race { thread, random in
      if thread == 0 {
        let clock = ContinuousClock()
        var due = clock.now
        for value in 0..<Self.values {
          subject.sendNext(value)
          sent.store(value + 1)
          mark.value = max(mark.value, value + 1 - delivered.load())
          due = due.advanced(by: Self.sendInterval)
          while clock.now < due {}
        }
        producerDone.set()
        iteration.count(Self.values)
        return
      }
      let answers = Mailbox<(ran: Int, at: ContinuousClock.Instant)>()
      var giveUp: ContinuousClock.Instant?  // pings go on behind the backlog the producer left, not forever
      while !producerDone.isSet || delivered.load() < Self.values {
        if producerDone.isSet {
          let deadline = giveUp ?? ContinuousClock.now.advanced(by: .seconds(5))
          giveUp = deadline
          if ContinuousClock.now > deadline { break }
        }
        let before = delivered.load()
        let backlog = sent.load() - before
        let start = ContinuousClock.now
        Self.issue(ping: actor, delivered: delivered, answers: answers)
        let issued = delivered.load()
        let answer = answers.take()
        pings.value.append(
          Ping(before: before, issued: issued, ran: answer.ran, backlog: backlog, latency: answer.at - start))
        iteration.count(1)
        random.dawdle(8)
      }
    }
    let arrived = waitUntil { delivered.load() >= Self.values }
    let final = Owned(Log())
    onActor(actor) { _ in final.value = log.value }
    subscription.dispose()
    let result = final.value
    iteration.check(
      detector.count == 0, Delivery.serial, "\(detector.count) callbacks started while another one ran")
    if let disorder = result.disorder {
      iteration.fail(Self.inOrder, "value \(disorder.value) arrived when \(disorder.due) was due")
    }
    iteration.check(arrived, Self.inOrder, "\(delivered.load()) of \(Self.values) values arrived within 10 s")
    let actorName = kind == 0 ? "default actor" : "QueueScheduler actor"
    if let late = pings.value.first(where: { $0.ran - $0.before > Self.allowed + ($0.issued - $0.before) }) {
      iteration.fail(
        Self.bounded,
        "\(actorName): \(late.ran - late.before) callbacks ran between a ping's issue and its run "
          + "(\(late.issued - late.before) of them while it was issued; backlog \(late.backlog)), "
          + "after \(late.latency)")
    }
    Self.highWaterMark.max(mark.value)
    Self.worst.withLock { worst in
      worst[kind].pings += pings.value.count
      for ping in pings.value {
        worst[kind].sinceIssue = max(worst[kind].sinceIssue, ping.ran - ping.before)
        worst[kind].sinceEnqueue = max(worst[kind].sinceEnqueue, ping.ran - ping.issued)
        if ping.backlog >= Self.budget, ping.latency > worst[kind].latency {
          worst[kind].latency = ping.latency
          worst[kind].backlogAtIssue = ping.backlog
        }
      }
    }
  }

  /// Awaits `ping` on `actor` from a task at the subscription's priority, started at once on the calling thread: the
  /// ping's job is enqueued on the actor before this returns. The answer goes to `answers`.
  private static func issue<A: Actor>(
    ping actor: A, delivered: Progress, answers: Mailbox<(ran: Int, at: ContinuousClock.Instant)>
  ) {
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
      Task.immediate(priority: .medium) { answers.post(await ping(actor, delivered)) }
    } else {
      Task(priority: .medium) { answers.post(await ping(actor, delivered)) }  // the enqueue comes later: looser
    }
  }
}

/// Other work on the actor: what the callback count says when it runs, and when.
private func ping<A: Actor>(_ actor: isolated A, _ delivered: Progress) -> (ran: Int, at: ContinuousClock.Instant) {
  (delivered.load(), ContinuousClock.now)
}
