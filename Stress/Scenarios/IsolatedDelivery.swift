import AsyncSignals
import Synchronization

/// Isolated delivery (issue 11): eight sender threads into one subject, subscribed with
/// `subscribeNext(isolatedTo:)`, while the subscription is disposed from inside the actor and from outside.
///
/// Each sender sends 200 stamps (its number, a sequence number, and the moment it sent them). The actor is a
/// default actor on even iterations and a `QueueScheduler`-backed one on odd iterations, where sender 0 sends from
/// blocks on the actor's own queue, so that its sends are delivered at once when nothing is waiting. The callback
/// disposes the subscription when it has received a random number of stamps (inside: on the actor); a ninth
/// thread disposes it once a random number has been received: from its own thread (outside), then it waits for
/// one turn of the actor; or, one time in three, in a job on the actor that is not a callback.
/// The callbacks keep their log in plain memory: only the isolation orders them (ThreadSanitizer checks it).
struct IsolatedDeliveryRace: Scenario {
  static let perSender = "per sender, the stamps arrive in the order sent, none skipped (a prefix of what it sent)"
  static let afterInside =
    "nothing is delivered after dispose() has returned on the actor (in a callback, or in another job on it)"
  static let afterOutside =
    "nothing sent after dispose() returned elsewhere arrives, and nothing at all after one more turn of the actor"

  let name = "IsolatedDelivery"
  let race =
    "8 threads send into a subject delivered into an actor (default / QueueScheduler-backed); disposed inside and out"
  let invariants = [Delivery.serial, perSender, afterInside, afterOutside]
  let sabotage = BrokenIsolatedDelivery.description

  static let senders = 8
  static let count = 200

  func threads(requested: Int) -> Int { Self.senders + 1 }

  /// What the callbacks record; touched only in the actor's isolation.
  struct Log {
    var received: [Stamp] = []
    var disposedOnActor = false
    var turnedAfterOutsideDispose = false
    var afterInside: [Stamp] = []
    var afterOutside: [Stamp] = []
  }

  struct Stamp: Sendable {
    let sender: Int
    let sequence: Int
    let sent: Int
  }

  func iterate(_ iteration: Iteration) {
    if iteration.number % 2 == 0 {
      run(iteration, actor: PlainActor(), queue: nil)
    } else {
      let actor = QueueBackedActor(name: "Stress.IsolatedDelivery")
      run(iteration, actor: actor, queue: actor.scheduler)
    }
  }

  private func run<A: Actor>(_ iteration: Iteration, actor: A, queue: QueueScheduler?) {
    let total = Self.senders * Self.count
    var setup = iteration.random()
    let insideAt = setup.below(total + total / 4)  // may never come: then the outside disposal ends it
    let outsideAt = setup.below(total + total / 4)
    let subject = Subject<Stamp, StressFailure>()
    let detector = OverlapDetector()
    let log = SerialState(Log())
    let progress = Progress()
    let subscription = Late<any Disposable>()
    let clock = EpochClock()
    let next: @Sendable (isolated A, Stamp) -> Void = { _, stamp in
      guard detector.enter() else { return }
      defer { detector.exit() }
      if log.value.disposedOnActor { log.value.afterInside.append(stamp) }
      if log.value.turnedAfterOutsideDispose { log.value.afterOutside.append(stamp) }
      log.value.received.append(stamp)
      progress.store(log.value.received.count)
      if log.value.received.count == insideAt {
        subscription.value.dispose()
        log.value.disposedOnActor = true
      }
    }
    let inFlight = Tally()
    subscription.set(
      iteration.isSabotaged
        ? BrokenIsolatedDelivery.subscribeNext(subject, isolatedTo: actor, inFlight: inFlight, next)
        : subject.subscribeNext(isolatedTo: actor, next, error: { _, _ in }, completed: { _ in }))
    let sendersDone = Tally()
    let disposeReturned = Owned(Int.max)
    iteration.race { thread, random in
      if thread == Self.senders {
        while progress.load() < outsideAt, sendersDone.value < Self.senders { random.dawdle(4) }
        if random.oneIn(3) {
          onActor(actor) { _ in
            subscription.value.dispose()
            log.value.disposedOnActor = true
          }
        } else {
          subscription.value.dispose()
          disposeReturned.value = clock.tick()
          onActor(actor) { _ in log.value.turnedAfterOutsideDispose = true }
        }
        iteration.count(1)
        return
      }
      for sequence in 0..<Self.count {
        if thread == 0, let queue {
          queue.queue.sync { subject.sendNext(Stamp(sender: thread, sequence: sequence, sent: clock.tick())) }
        } else {
          subject.sendNext(Stamp(sender: thread, sequence: sequence, sent: clock.tick()))
        }
        if random.oneIn(32) { random.dawdle(2) }
      }
      sendersDone.increment()
      iteration.count(Self.count)
    }
    if iteration.isSabotaged {
      _ = waitUntil { inFlight.value == 0 }
    }
    let final = Owned(Log())
    onActor(actor) { _ in final.value = log.value }
    let result = final.value
    iteration.check(
      detector.count == 0, Delivery.serial, "\(detector.count) callbacks started while another one ran")
    var due = Array(repeating: 0, count: Self.senders)
    for stamp in result.received {
      guard stamp.sequence == due[stamp.sender] else {
        iteration.fail(
          Self.perSender, "sender \(stamp.sender): stamp \(stamp.sequence) arrived when \(due[stamp.sender]) was due")
        break
      }
      due[stamp.sender] += 1
    }
    if let late = result.afterInside.first {
      iteration.fail(
        Self.afterInside,
        "\(result.afterInside.count) stamps arrived after dispose() returned on the actor (the first: sender "
          + "\(late.sender) #\(late.sequence))")
    }
    if let late = result.afterOutside.first {
      iteration.fail(
        Self.afterOutside,
        "\(result.afterOutside.count) stamps arrived after the turn that followed dispose() (the first: sender "
          + "\(late.sender) #\(late.sequence))")
    }
    if let late = result.received.first(where: { $0.sent > disposeReturned.value }) {
      iteration.fail(
        Self.afterOutside,
        "sender \(late.sender) #\(late.sequence), sent at \(late.sent), arrived; dispose() returned at "
          + "\(disposeReturned.value)")
    }
  }
}

/// How many stamps the actor has received, for the outside disposer to wait on: relaxed, so that it orders
/// nothing (the callbacks must be ordered by the isolation alone).
final class Progress: Sendable {
  private let count = Atomic<Int>(0)

  func store(_ value: Int) { count.store(value, ordering: .relaxed) }

  func load() -> Int { count.load(ordering: .relaxed) }
}
