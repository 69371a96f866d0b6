import AsyncSignals
import Synchronization

/// How the ZipTurn race zips two inputs for one observer: the library's `zip(with:)`, and the broken twin.
protocol ZipTurnZipping: Sendable {
  /// Zips `left` with `right` and subscribes `observer`, which from then on only the zip keeps; `take`, if given,
  /// ends the result after that many pairs (a downstream `.stop`).
  func subscribe(
    _ left: Signal<Int, StressFailure>, _ right: Signal<Int, StressFailure>, take: Int?, _ observer: ZipTurnObserver
  ) -> any Disposable
}

/// The library's `zip(with:)`, with `take(_:)` after it when asked for, subscribed with closures that alone keep
/// the observer.
struct LibraryZipping: ZipTurnZipping {
  func subscribe(
    _ left: Signal<Int, StressFailure>, _ right: Signal<Int, StressFailure>, take: Int?, _ observer: ZipTurnObserver
  ) -> any Disposable {
    let zipped = left.zip(with: right)
    return (take.map { zipped.take($0) } ?? zipped).subscribeNext(
      { pair in observer.receive(pair) }, error: { _ in }, completed: { observer.complete() })
  }
}

/// The deliverer's turn of `zip(with:)` against disposal from other threads and from its own callbacks.
///
/// `zip(with:)` (Operators/Zip/ZipPairStorage.swift) hands each pair to the thread whose value completes it, which
/// then delivers (its turn), calling the observer through an unmanaged reference it does not retain. Only the end of
/// a turn may release the observer: a `dispose()`, a downstream `.stop` or the delivery of the terminal event during
/// a turn leaves the release to that turn, and with no turn in progress `dispose()` releases at once. Events decided
/// during a turn (on other threads, or by a send from the callback) wait for the deliverer, in order, and are dropped
/// on disposal. Lose that hand-off and observers leak; skip it and an observer is freed while a call through it is
/// still running.
///
/// Two subjects are the inputs, and about half the threads send into them (each thread into one side; every value
/// is the epoch at which its send was issued). The other threads zip the two, subscribe and dispose, over and over;
/// each subscription zips its own `map` of each subject, which logs the order in which that side delivered. Some
/// subscriptions `take` a few pairs (a downstream `.stop`) or a few left values (the zip then completes: its terminal
/// event). Some observers dawdle in their callback, holding the turn; some dispose another subscription of the race
/// from their callback, or their own; some send into the side whose send they are called from (nested, so queued
/// behind the turn in progress). Every observer is an object that only the zip keeps, holding a canary whose deinit
/// checks that no call through its observer is in progress (a plain-build proxy for the use-after-free that
/// AddressSanitizer reports: see Scripts/stress-asan.sh) and counts releases. Once the race has joined, every canary
/// must have been released while the disposables are still alive, so that a leaked observer cannot hide behind the
/// zip's deinit. The report counts how often the run met the shapes the hand-off exists for.
struct ZipTurnRace: Scenario {
  static let notInCall = "an observer is never released while a call through it is in progress"
  static let afterDispose = "no delivery starts after dispose() returned"
  static let released =
    "once every send has returned and every subscription is disposed, every observer has been released "
    + "(while the disposables are still alive)"
  static let order =
    "each subscription's pairs follow the order in which each side delivered its values, none duplicated"
  static let ending = "a subscription completes only after the last pair its take allows"

  let name = "ZipTurn"
  let race =
    "threads send into a zip's two inputs while others subscribe and dispose, and callbacks dispose and send"
  let invariants = [Delivery.serial, Delivery.terminal, notInCall, afterDispose, released, order, ending]
  let sabotage = EagerReleaseZip.description

  func threads(requested: Int) -> Int { max(5, requested) }

  /// What the run exercised, over all its iterations.
  static let coverage = ZipTurnCoverage()

  var report: String? {
    let coverage = Self.coverage
    return "\(coverage.disposals.summary) and "
      + "\(coverage.nestedSends.value) sends into an input; \(coverage.pairs.value) pairs delivered, "
      + "\(coverage.completed.value) subscriptions completed"
  }

  func iterate(_ iteration: Iteration) {
    let values = 60
    let rounds = 10
    let zipping: any ZipTurnZipping = iteration.isSabotaged ? EagerReleaseZipping() : LibraryZipping()
    let senders = (iteration.threads + 1) / 2
    let stage = ZipTurnStage(senders: senders)
    let census = TurnCensus()
    var setup = iteration.random()
    let subscribers = iteration.threads - senders
    let tickets = (0..<subscribers * rounds).map { id in
      ZipTurnTicket(
        id: id, dawdles: setup.oneIn(3), disposesOthers: setup.oneIn(3), disposesItself: setup.oneIn(4),
        sendsNested: setup.oneIn(3), takePairs: setup.oneIn(6) ? 1 + setup.below(6) : nil,
        takeLeft: setup.oneIn(6) ? 1 + setup.below(8) : nil)
    }
    stage.pool.set(tickets)
    stage.subscribing.add(subscribers)
    iteration.race { thread, random in
      if thread < senders {
        let side = thread % 2
        stage.enter(sender: thread)
        // Until every subscription has been made and disposed, so that each one meets sends; at least `values`.
        var sent = 0
        while sent < values || (stage.subscribing.value > 0 && sent < 8 * values) {
          stage.subjects[side].sendNext(stage.clock.tick())
          sent += 1
          if random.oneIn(16) { random.dawdle(2) }
        }
        iteration.count(sent)
        return
      }
      defer { stage.subscribing.decrement() }
      for round in 0..<rounds {
        let ticket = tickets[(thread - senders) * rounds + round]
        let inputs = (0..<2).map { side in
          let logged = stage.subjects[side].map { value in
            ticket.logs[side].value.append(value)
            return value
          }
          return side == 0 ? ticket.takeLeft.map { logged.take($0) } ?? logged : logged
        }
        // The observer is made in the call, so that the zip holds the only reference to it.
        let disposable = zipping.subscribe(
          inputs[0], inputs[1], take: ticket.takePairs,
          ZipTurnObserver(
            ticket: ticket, canary: TurnCanary(ticket, census, handedOff: Self.coverage.disposals.handedOff),
            stage: stage))
        ticket.publish(disposable)
        random.dawdle(16)
        ticket.dispose(stage.clock)
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
    for ticket in tickets { check(ticket, iteration) }
    // Dropped only now: a leaked observer and its zip keep each other, through the ticket, until here.
    for ticket in tickets { ticket.forget() }
  }

  private func check(_ ticket: ZipTurnTicket, _ iteration: Iteration) {
    let recorder = ticket.recorder
    recorder.checkDelivery(iteration, "subscription \(ticket.id)")
    iteration.check(
      !ticket.lateOnDisposer.isSet, Self.afterDispose,
      "subscription \(ticket.id) was called on a thread after its dispose() there had returned")
    let pairs = recorder.values
    ZipTurnRace.coverage.pairs.add(pairs.count)
    let disposeReturned = ticket.disposeReturned.value
    if let late = pairs.first(where: { max(abs($0.0), abs($0.1)) > disposeReturned }) {
      iteration.fail(
        Self.afterDispose,
        "subscription \(ticket.id) received \(late), a value of which was sent at "
          + "\(max(abs(late.0), abs(late.1))); dispose returned at \(disposeReturned)")
    }
    let (lefts, rights) = (ticket.logs[0].value, ticket.logs[1].value)
    if let wrong = pairs.indices.first(where: {
      $0 >= lefts.count || $0 >= rights.count || pairs[$0] != (lefts[$0], rights[$0])
    }) {
      iteration.fail(
        Self.order,
        "subscription \(ticket.id)'s pair #\(wrong) is \(pairs[wrong]); its sides delivered \(lefts.count) and "
          + "\(rights.count) values")
    }
    if Set(lefts).count != lefts.count || Set(rights).count != rights.count {
      iteration.fail(Self.order, "subscription \(ticket.id)'s sides delivered a value twice")
    }
    let allowed = min(ticket.takePairs ?? .max, ticket.takeLeft ?? .max)
    iteration.check(
      pairs.count <= allowed, Self.ending, "subscription \(ticket.id) received \(pairs.count) pairs of \(allowed)")
    if recorder.isCompleted {
      ZipTurnRace.coverage.completed.increment()
      iteration.check(
        pairs.count == allowed, Self.ending,
        "subscription \(ticket.id) completed after \(pairs.count) pairs; its take allows \(allowed)")
    }
  }
}

/// The shapes the ZipTurn race met, counted over a run for its report.
final class ZipTurnCoverage: Sendable {
  let disposals = DisposalCoverage()
  /// Sends from a callback into the input whose send it was called from.
  let nestedSends = Tally()
  /// Pairs delivered, and subscriptions that completed (their `take` ran out) rather than being disposed first.
  let pairs = Tally()
  let completed = Tally()

  init() {}
}

/// What every thread of one ZipTurn iteration shares: the inputs, the clock, the tickets, and which input each
/// sending thread sends into.
final class ZipTurnStage: Sendable {
  /// The left and right inputs.
  let subjects = [Subject<Int, StressFailure>(), Subject<Int, StressFailure>()]
  let clock = EpochClock()
  let pool = Late<[ZipTurnTicket]>()
  /// The threads still subscribing and disposing.
  let subscribing = Tally()
  /// The thread of each sender (`0` until it starts); sender `n` sends into side `n % 2`.
  private let senders: [ThreadSlot]

  init(senders: Int) {
    self.senders = (0..<senders).map { _ in ThreadSlot() }
  }

  /// Called by sender `index` on its thread, before it sends.
  func enter(sender index: Int) { senders[index].claim() }

  /// The side the calling thread sends into, if it is a sender. A callback runs only on a sender's thread, inside
  /// its send, so that side's subject is the one whose turn it holds: a nested send into it re-enters that turn
  /// instead of waiting for another subject's (which could close a cycle with another sender, as ZipCrossFeed does).
  func sideOfCurrentThread() -> Int? {
    let me = currentThreadToken()
    return senders.firstIndex { $0.isCurrent(me) }.map { $0 % 2 }
  }
}

/// The thread that claimed it. Relaxed: only the claiming thread needs to find its own token.
final class ThreadSlot: Sendable {
  private let token = Atomic<UInt>(0)

  init() {}

  func claim() { token.store(currentThreadToken(), ordering: .relaxed) }

  func isCurrent(_ me: UInt) -> Bool { token.load(ordering: .relaxed) == me }
}

/// One subscription of the ZipTurn race as the harness sees it: its role, its moments, what it received.
///
/// It outlives the subscription (the scenario keeps every ticket), so a callback whose observer has been freed under
/// it can still reach its ticket safely.
final class ZipTurnTicket: CanaryTicket {
  let id: Int
  /// Whether its callbacks dawdle, holding the zip's turn.
  let dawdles: Bool
  /// Whether its callbacks dispose a random subscription of the race, now and then.
  let disposesOthers: Bool
  /// Whether a callback of it disposes its own subscription, now and then.
  let disposesItself: Bool
  /// Whether its callbacks send into the input they were called from, now and then.
  let sendsNested: Bool
  /// The pairs a `take` after the zip lets through, and the left values a `take` before it does.
  let takePairs: Int?
  let takeLeft: Int?
  let recorder = Recorder<(Int, Int)>()
  /// The values each side delivered to this subscription's zip, in order: written by that side's `map`, whose
  /// calls the subject serialises.
  let logs = [SerialState<[Int]>([]), SerialState<[Int]>([])]
  /// Calls through the observer in progress. Relaxed, as `OverlapDetector` is: it must not itself order the
  /// callbacks. A zip that releases the observer only after the call happens-after the call's decrement, so the
  /// canary's load sees it; a broken one may not, which is what the canary reports.
  private let calls = Atomic<Int>(0)
  /// Set by a callback that found its observer changed under it when it returned (freed and reused).
  let torn = Flag()
  /// The first thread on which a `dispose()` of it returned, and whether a call through the observer then began on
  /// that thread (exact, unlike the epochs: one thread's program order).
  private let disposer = Atomic<UInt>(0)
  let lateOnDisposer = Flag()
  /// The earliest epoch at which a `dispose()` returned (`Int.max` until then).
  let disposeReturned = EarliestTick()
  private let disposable = LockedBox<(any Disposable)?>(nil)

  init(
    id: Int, dawdles: Bool, disposesOthers: Bool, disposesItself: Bool, sendsNested: Bool, takePairs: Int?,
    takeLeft: Int?
  ) {
    self.id = id
    self.dawdles = dawdles
    self.disposesOthers = disposesOthers
    self.disposesItself = disposesItself
    self.sendsNested = sendsNested
    self.takePairs = takePairs
    self.takeLeft = takeLeft
  }

  /// Whether a call through the observer is in progress.
  var isInCall: Bool { calls.load(ordering: .relaxed) > 0 }

  /// `isPair`: the call delivers a pair, which the zip decides. Only pairs are checked against the disposer's thread:
  /// a `take(k)` after the zip sends its completion from inside the zip's call of the k-th pair, after that pair's
  /// callback returned, so a callback that disposed its own subscription there still receives the completion (a
  /// trait of `take` and `subscribeNext`, with any source; not of the zip's turn).
  func callStarted(isPair: Bool) {
    calls.wrappingAdd(1, ordering: .relaxed)
    if isPair, disposer.load(ordering: .relaxed) == currentThreadToken() { lateOnDisposer.set() }
  }

  func callEnded() { calls.wrappingSubtract(1, ordering: .relaxed) }

  /// Makes the subscription disposable by anyone, once `subscribe` has returned.
  func publish(_ disposable: any Disposable) {
    self.disposable.value = disposable
  }

  /// Disposes the subscription, if it has been published, recording when and where the call returned; `caller` is
  /// the subscription whose callback disposes it, if any.
  func dispose(_ clock: EpochClock, from caller: ZipTurnTicket? = nil) {
    guard let disposable = disposable.value else { return }
    let coverage = ZipTurnRace.coverage
    coverage.disposals.count(self, from: caller, inCall: isInCall)
    disposable.dispose()
    disposeReturned.record(clock.tick())
    _ = disposer.compareExchange(expected: 0, desired: currentThreadToken(), ordering: .relaxed)
  }

  /// Drops the disposable (after the checks).
  func forget() { disposable.value = nil }
}

/// The observer of one ZipTurn subscription: an object that only the zip keeps, holding the canary.
///
/// Its calls work from its ticket and the race's stage, which the scenario keeps; after the callback they read the
/// observer's own memory once more, which AddressSanitizer reports if the observer was freed meanwhile.
final class ZipTurnObserver: Sendable {
  private let id: Int
  private let ticket: ZipTurnTicket
  private let canary: TurnCanary
  private let stage: ZipTurnStage

  init(ticket: ZipTurnTicket, canary: TurnCanary, stage: ZipTurnStage) {
    id = ticket.id
    self.ticket = ticket
    self.canary = canary
    self.stage = stage
  }

  func receive(_ pair: (Int, Int)) { call(.next(pair)) }

  func complete() { call(.completed) }

  private func call(_ event: Event<(Int, Int), StressFailure>) {
    let ticket = self.ticket
    let stage = self.stage
    ticket.callStarted(isPair: event.value != nil)
    Self.react(to: event, ticket, stage)
    // The observer's own memory, after the callback: freed (and perhaps reused) if it was released meanwhile.
    if id != ticket.id { ticket.torn.set() }
    ticket.callEnded()
  }

  /// The callback proper; it never touches the observer, which a broken zip may free under it.
  @inline(never)
  private static func react(
    to event: Event<(Int, Int), StressFailure>, _ ticket: ZipTurnTicket, _ stage: ZipTurnStage
  ) {
    ticket.recorder.record(event)
    guard let (left, right) = event.value else { return }
    // Decided by the subscription and the pair, so that a callback needs no state of its own.
    var random = SplitMix(seed: UInt64(truncatingIfNeeded: ticket.id &* 1_000_003 &+ left &* 31 &+ right))
    if ticket.dawdles { random.dawdle(3) }
    // Only from pairs of values sent by the senders (positive), so that nested sends do not cascade.
    if ticket.sendsNested, left > 0, right > 0, random.oneIn(3), let side = stage.sideOfCurrentThread() {
      ZipTurnRace.coverage.nestedSends.increment()
      stage.subjects[side].sendNext(-stage.clock.tick())
    }
    if ticket.disposesOthers, random.oneIn(6) {
      let others = stage.pool.value
      others[random.below(others.count)].dispose(stage.clock, from: ticket)
    }
    if ticket.disposesItself, random.oneIn(8) { ticket.dispose(stage.clock, from: ticket) }
  }
}
