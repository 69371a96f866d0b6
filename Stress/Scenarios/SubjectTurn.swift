import AsyncSignals
import Synchronization

/// What the SubjectTurn race needs of a subject: the library's `Subject` and `ReplaySubject`, and the broken twin.
protocol TurnSubject: Sendable {
  func sendNext(_ value: Int)
  /// Subscribes `observer`; from then on the subject alone keeps it, until the subscription is disposed.
  func subscribe(_ observer: TurnObserver) -> any Disposable
}

extension Subject: TurnSubject where Value == Int, Failure == StressFailure {
  func subscribe(_ observer: TurnObserver) -> any Disposable {
    subscribeNext({ value in observer.receive(value) }, error: { _ in }, completed: {})
  }
}

/// A subject's turn against disposal and subscription from other threads, and from its own callbacks.
///
/// A subject delivers under one recursive lock, its turn, and its sinks take no lock of their own. A disposal
/// from another thread while a turn is in progress cannot take that lock (`tryLock`): it leaves the sink to the
/// thread in the turn, which releases the observer after unlocking. Lose that hand-off and observers leak; skip it
/// and an observer is freed while a call through it is still running.
///
/// Two threads send into a `Subject` (and, on odd iterations, into a `ReplaySubject(capacity: 2)` too, whose
/// subscriptions replay in a turn); each value is the epoch at which its send was issued. The other threads
/// subscribe and dispose, over and over. Some observers dawdle in their callback, holding the turn; some dispose
/// another subscription of the race from their callback (of either subject, so re-entering the turn or failing
/// its `tryLock` on another thread's), or their own. Every observer is an object that only the subject keeps, and
/// it holds a canary: the canary's deinit checks that no call through its observer is in progress (a plain-build
/// proxy for the use-after-free that AddressSanitizer reports: see Scripts/stress-asan.sh), and counts releases.
/// Once the race has joined, every canary must have been released while the disposables are still alive, so that a
/// leaked observer cannot hide behind a sink's deinit. The report counts how often the run met the shapes the
/// hand-off exists for.
struct SubjectTurnRace: Scenario {
  static let noneLost =
    "a value whose send started after subscribe returned and returned before dispose was called arrives"
  static let afterDispose = "no delivery starts after dispose() returned"
  static let notInCall = "an observer is never released while a call through it is in progress"
  static let released =
    "once every send has returned and every subscription is disposed, every observer has been released "
    + "(while the disposables are still alive)"

  let name = "SubjectTurn"
  let race = "threads send into a subject while others subscribe and dispose, and callbacks dispose subscriptions"
  let invariants = [Delivery.serial, noneLost, afterDispose, notInCall, released]
  let sabotage = EagerReleaseSubject.description

  func threads(requested: Int) -> Int { max(4, requested) }

  /// What the run exercised, over all its iterations.
  static let coverage = TurnCoverage()

  var report: String? {
    let coverage = Self.coverage
    return "\(coverage.disposals.summary); "
      + "\(coverage.subscribedInSend.value) subscriptions made while a send into their subject was in progress"
  }

  private struct Send {
    let subject: Int
    let issued: Int
    let returned: Int
  }

  func iterate(_ iteration: Iteration) {
    let values = 120
    let rounds = 10
    let replays = iteration.number % 2 == 1
    let subjects: [any TurnSubject]
    if iteration.isSabotaged {
      subjects = (0..<(replays ? 2 : 1)).map { _ in EagerReleaseSubject() }
    } else {
      subjects = [Subject<Int, StressFailure>()] + (replays ? [ReplaySubject<Int, StressFailure>(capacity: 2)] : [])
    }
    let clock = EpochClock()
    let census = TurnCensus()
    var setup = iteration.random()
    let subscribers = iteration.threads - 2
    let tickets = (0..<subscribers * rounds).map { id in
      TurnTicket(
        id: id, subject: setup.below(subjects.count), dawdles: setup.oneIn(3), disposesOthers: setup.oneIn(3),
        disposesItself: setup.oneIn(4))
    }
    let pool = Late<[TurnTicket]>()
    pool.set(tickets)
    let sends = (0..<2).map { _ in Owned<[Send]>([]) }
    iteration.race { thread, random in
      if thread < 2 {
        for _ in 0..<values {
          let subject = random.below(subjects.count)
          let issued = clock.tick()
          subjects[subject].sendNext(issued)
          sends[thread].value.append(Send(subject: subject, issued: issued, returned: clock.tick()))
          if random.oneIn(16) { random.dawdle(2) }
        }
        iteration.count(values)
        return
      }
      for round in 0..<rounds {
        let ticket = tickets[(thread - 2) * rounds + round]
        // The observer is made in the call, so that the subject holds the only reference to it.
        let disposable = subjects[ticket.subject].subscribe(
          TurnObserver(
            ticket: ticket, canary: TurnCanary(ticket, census, handedOff: Self.coverage.disposals.handedOff),
            pool: pool,
            clock: clock)
        )
        ticket.publish(disposable, subscribed: clock.tick())
        random.dawdle(8)
        ticket.dispose(clock)
      }
      iteration.count(2 * rounds)
    }
    // Every send has returned and every subscription is disposed; the tickets still hold the disposables.
    let released = census.released.value
    iteration.check(
      released == tickets.count, Self.released,
      "\(tickets.count - released) of \(tickets.count) observers still alive after every disposal")
    iteration.check(
      census.releasedInCall.value == 0, Self.notInCall,
      "\(census.releasedInCall.value) observers released during a call through them")
    let torn = tickets.filter(\.torn.isSet).map(\.id)
    iteration.check(
      torn.isEmpty, Self.notInCall, "the callbacks of subscriptions \(torn) found their observer overwritten")
    check(tickets, sends: sends.flatMap(\.value), iteration)
    // Dropped only now: a leaked observer and its sink keep each other, through the ticket, until here.
    for ticket in tickets { ticket.forget() }
  }

  private func check(_ tickets: [TurnTicket], sends: [Send], _ iteration: Iteration) {
    for ticket in tickets {
      let recorder = ticket.recorder
      iteration.check(
        recorder.detector.count == 0, Delivery.serial,
        "subscription \(ticket.id) saw \(recorder.detector.count) callbacks start while another ran")
      let disposeCalled = ticket.disposeCalled.value
      let disposeReturned = ticket.disposeReturned.value
      let values = recorder.values
      if let late = values.first(where: { $0 > disposeReturned }) {
        iteration.fail(
          Self.afterDispose,
          "subscription \(ticket.id) received the value issued at \(late); dispose returned at \(disposeReturned)")
      }
      let received = Set(values)
      let subscribed = ticket.subscribed.value
      if sends.contains(where: { $0.subject == ticket.subject && $0.issued < subscribed && subscribed < $0.returned }) {
        Self.coverage.subscribedInSend.increment()
      }
      for send in sends
      where send.subject == ticket.subject && send.issued > subscribed && send.returned < disposeCalled
        && !received.contains(send.issued)
      {
        iteration.fail(
          Self.noneLost,
          "subscription \(ticket.id) lost the value issued at \(send.issued), returned at \(send.returned); "
            + "subscribed \(subscribed)–\(disposeCalled)")
      }
    }
  }
}

/// The releases the SubjectTurn canaries count.
final class TurnCensus: Sendable {
  /// Canaries released.
  let released = Tally()
  /// Canaries released while a call through their observer was in progress.
  let releasedInCall = Tally()

  init() {}
}

/// The disposals a turn race (SubjectTurn, ZipTurn) met, counted over a run for its report.
final class DisposalCoverage: Sendable {
  /// Disposals of a subscription whose observer another thread was calling: the disposal cannot take the turn.
  let duringCall = Tally()
  /// Observers released after a `dispose()` of their subscription had returned: left to the thread in the turn, or
  /// to the outermost delivery of a callback that disposed its own subscription.
  let handedOff = Tally()
  /// Disposals from a callback, of another subscription and of the callback's own.
  let nested = Tally()
  let own = Tally()

  init() {}

  /// Counts a disposal of `ticket`'s subscription, from the callback of `caller`'s if any; `inCall`: whether a call
  /// through the disposed subscription's observer was in progress.
  func count(_ ticket: AnyObject, from caller: AnyObject?, inCall: Bool) {
    if let caller { (caller === ticket ? own : nested).increment() }
    if caller !== ticket, inCall { duringCall.increment() }
  }

  /// The counts, for a report.
  var summary: String {
    "\(duringCall.value) disposals during another thread's call through the observer, \(handedOff.value) observers "
      + "released after dispose() had returned; from callbacks, \(nested.value) disposals of another subscription, "
      + "\(own.value) of their own"
  }
}

/// The shapes the SubjectTurn race met, counted over a run for its report.
final class TurnCoverage: Sendable {
  let disposals = DisposalCoverage()
  /// Subscriptions whose `subscribe` returned while a send into their subject was in progress.
  let subscribedInSend = Tally()

  init() {}
}

/// What a canary reads of its subscription's ticket when it is released.
protocol CanaryTicket: Sendable {
  /// Whether a call through the subscription's observer is in progress.
  var isInCall: Bool { get }
  /// The earliest epoch at which a `dispose()` of the subscription returned (`Int.max` until then).
  var disposeReturned: EarliestTick { get }
}

/// Captured by one observer alone (of SubjectTurn or ZipTurn): released with it. Its release counts in `census`,
/// and in `handedOff` if it came after a `dispose()` of its subscription had returned.
final class TurnCanary: Sendable {
  private let ticket: any CanaryTicket
  private let census: TurnCensus
  private let handedOff: Tally

  init(_ ticket: any CanaryTicket, _ census: TurnCensus, handedOff: Tally) {
    self.ticket = ticket
    self.census = census
    self.handedOff = handedOff
  }

  deinit {
    if ticket.isInCall { census.releasedInCall.increment() }
    if ticket.disposeReturned.value != .max { handedOff.increment() }
    census.released.increment()
  }
}

/// One subscription of the SubjectTurn race as the harness sees it: its role, its moments, what it received.
///
/// It outlives the subscription (the scenario keeps every ticket), so a callback whose observer has been freed
/// under it can still reach its ticket safely.
final class TurnTicket: CanaryTicket {
  let id: Int
  let subject: Int
  /// Whether its callbacks dawdle, holding the subject's turn.
  let dawdles: Bool
  /// Whether its callbacks dispose a random subscription of the race, now and then.
  let disposesOthers: Bool
  /// Whether a callback of it disposes its own subscription, now and then.
  let disposesItself: Bool
  let recorder = Recorder<Int>()
  /// Calls through the observer in progress. Relaxed, as `OverlapDetector` is: it must not itself order the
  /// callbacks. A library that releases the observer only after the call happens-after the call's decrement, so
  /// the canary's load sees it; a broken one may not, which is what the canary reports.
  private let calls = Atomic<Int>(0)
  /// Set by a callback that found its observer changed under it when it returned (freed and reused).
  let torn = Flag()
  /// The epoch after `subscribe` returned (`Int.max` until then).
  let subscribed = EarliestTick()
  /// The earliest epoch at which a `dispose()` was called, and the earliest at which one returned.
  let disposeCalled = EarliestTick()
  let disposeReturned = EarliestTick()
  private let disposable = LockedBox<(any Disposable)?>(nil)

  init(id: Int, subject: Int, dawdles: Bool, disposesOthers: Bool, disposesItself: Bool) {
    self.id = id
    self.subject = subject
    self.dawdles = dawdles
    self.disposesOthers = disposesOthers
    self.disposesItself = disposesItself
  }

  /// Whether a call through the observer is in progress.
  var isInCall: Bool { calls.load(ordering: .relaxed) > 0 }

  func callStarted() { calls.wrappingAdd(1, ordering: .relaxed) }

  func callEnded() { calls.wrappingSubtract(1, ordering: .relaxed) }

  /// Makes the subscription disposable by anyone, once `subscribe` has returned.
  func publish(_ disposable: any Disposable, subscribed: Int) {
    self.subscribed.record(subscribed)
    self.disposable.value = disposable
  }

  /// Disposes the subscription, if it has been published, recording when the call began and returned; `caller`
  /// is the subscription whose callback disposes it, if any.
  func dispose(_ clock: EpochClock, from caller: TurnTicket? = nil) {
    guard let disposable = disposable.value else { return }
    let coverage = SubjectTurnRace.coverage
    coverage.disposals.count(self, from: caller, inCall: isInCall)
    disposeCalled.record(clock.tick())
    disposable.dispose()
    disposeReturned.record(clock.tick())
  }

  /// Drops the disposable (after the checks).
  func forget() { disposable.value = nil }
}

/// The earliest of the epochs recorded into it; `Int.max` until one is. Any thread may record.
final class EarliestTick: Sendable {
  private let earliest = Atomic<Int>(.max)

  init() {}

  func record(_ tick: Int) { earliest.min(tick, ordering: .acquiringAndReleasing) }

  var value: Int { earliest.load(ordering: .acquiring) }
}

/// The observer of one SubjectTurn subscription: an object that only the subject keeps, holding the canary.
///
/// `receive(_:)` works from its ticket and the race's shared objects, which the scenario keeps; after the callback it
/// reads the observer's own memory once more, which AddressSanitizer reports if the observer was freed meanwhile.
final class TurnObserver: Sendable {
  private let id: Int
  private let ticket: TurnTicket
  private let canary: TurnCanary
  private let pool: Late<[TurnTicket]>
  private let clock: EpochClock

  init(ticket: TurnTicket, canary: TurnCanary, pool: Late<[TurnTicket]>, clock: EpochClock) {
    id = ticket.id
    self.ticket = ticket
    self.canary = canary
    self.pool = pool
    self.clock = clock
  }

  func receive(_ value: Int) {
    let ticket = self.ticket
    ticket.callStarted()
    Self.react(to: value, ticket, pool, clock)
    // The observer's own memory, after the callback: freed (and perhaps reused) if it was released meanwhile.
    if id != ticket.id { ticket.torn.set() }
    ticket.callEnded()
  }

  /// The callback proper; it never touches the observer, which a broken subject may free under it.
  @inline(never)
  private static func react(to value: Int, _ ticket: TurnTicket, _ pool: Late<[TurnTicket]>, _ clock: EpochClock) {
    ticket.recorder.record(.next(value))
    // Decided by the subscription and the value, so that a callback needs no state of its own.
    var random = SplitMix(seed: UInt64(truncatingIfNeeded: ticket.id &* 1_000_003 &+ value))
    if ticket.dawdles { random.dawdle(3) }
    if ticket.disposesOthers, random.oneIn(6) {
      let others = pool.value
      others[random.below(others.count)].dispose(clock, from: ticket)
    }
    if ticket.disposesItself, random.oneIn(24) { ticket.dispose(clock, from: ticket) }
  }
}
