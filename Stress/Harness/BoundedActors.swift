import AsyncSignals
import Synchronization

// What the bounded-delivery-into-an-actor scenarios (BoundedActor, BoundedActorResume, BoundedActorBacklog) share:
// the subscription they read the figures of, whichever engine made it (the library's, or the broken twin's under
// `--sabotage`), the callbacks and their log, and a source that counts what it produced.

/// A bounded subscription into an actor as the scenarios read it: the library's `IsolatedSubscription`, or the
/// twin's (`TwinBoundedDelivery`), so that a scenario checks both through the same figures.
protocol BoundedActorSubscription: Disposable {
  var overflowCount: Int { get }
  var droppedCount: Int { get }
  var highWaterMark: Int { get }
}

extension IsolatedSubscription: BoundedActorSubscription {}

/// Subscribes `tally`'s callbacks to `signal` in `actor`'s isolation with `policy`: through the library's
/// `subscribeNext(isolatedTo:bufferingPolicy:_:error:completed:)`, or through the broken twin with `bug`.
func subscribeBounded<A: Actor>(
  _ signal: Signal<Int, StressFailure>, isolatedTo actor: A, policy: SignalBufferingPolicy,
  twin bug: TwinBoundedDelivery<A, Int>.Bug?, _ tally: ActorTally<A>
) -> any BoundedActorSubscription {
  if let bug {
    return TwinBoundedDelivery.subscribe(signal, isolatedTo: actor, policy: policy, bug: bug) { actor, event in
      switch event {
      case .next(let value): tally.next(actor, value)
      case .error(let failure): tally.ended(actor, failure)
      case .completed: tally.ended(actor, nil)
      }
    }
  }
  return signal.subscribeNext(
    isolatedTo: actor, bufferingPolicy: policy, tally.next, error: { actor, failure in tally.ended(actor, failure) },
    completed: { actor in tally.ended(actor, nil) })
}

/// The callbacks of one bounded subscription into an actor, and what they saw.
///
/// The log is plain memory that only the actor's isolation orders (`SerialState`; ThreadSanitizer checks it),
/// entered through an `OverlapDetector`. Harness threads wait on relaxed counters (`Progress`), which order
/// nothing, and read the log once in a job of the actor (`final(on:)`).
final class ActorTally<A: Actor>: Sendable {
  struct Log {
    var received: [Int] = []
    var terminals = 0
    var failure: StressFailure?
    /// Values delivered after the terminal event.
    var afterTerminal = 0
    /// Set on the actor once `dispose()` has returned there (in a callback or in another job of the actor), or once
    /// an outside `dispose()` has returned and the actor has run one more job: nothing may be delivered after.
    var disposalSeen = false
    var afterDisposal: [Int] = []
    /// The largest backlog a `reaction` measured (BoundedActorBacklog).
    var backlog = 0
  }

  let detector = OverlapDetector()
  let log = SerialState(Log())
  let delivered = Progress()
  let ends = Progress()
  /// Microseconds each callback spins: a slow actor, so that values wait for it.
  private let work: Int
  /// Runs in each value's callback once the value is recorded, with the log.
  private let reaction: (@Sendable (_ log: inout Log) -> Void)?

  init(work: Int, reaction: (@Sendable (_ log: inout Log) -> Void)? = nil) {
    self.work = work
    self.reaction = reaction
  }

  var next: @Sendable (isolated A, Int) -> Void {
    { [self] _, value in
      guard detector.enter() else { return }
      defer { detector.exit() }
      spin(microseconds: work)
      if log.value.terminals > 0 { log.value.afterTerminal += 1 }
      if log.value.disposalSeen { log.value.afterDisposal.append(value) }
      log.value.received.append(value)
      delivered.store(log.value.received.count)
      reaction?(&log.value)
    }
  }

  func ended(_ actor: isolated A, _ failure: StressFailure?) {
    guard detector.enter() else { return }
    defer { detector.exit() }
    log.value.terminals += 1
    log.value.failure = failure
    ends.store(log.value.terminals)
  }

  /// The log, read in a job of the actor: every callback that ran before it is ordered before the read.
  func final(on actor: A) -> Log {
    let final = Owned(Log())
    onActor(actor) { _ in final.value = self.log.value }
    return final.value
  }

  /// Checks serial delivery and the terminal event's place: once, after every value.
  func checkTerminal(_ iteration: Iteration, _ log: Log, invariant: String, expected: Bool = true) {
    iteration.check(
      detector.count == 0, Delivery.serial, "\(detector.count) callbacks started while another one ran")
    if expected {
      iteration.check(
        log.terminals == 1 && log.afterTerminal == 0, invariant,
        "\(log.terminals) terminal events delivered, \(log.afterTerminal) values after the first")
    } else {
      iteration.check(
        log.terminals <= 1 && log.afterTerminal == 0, invariant,
        "\(log.terminals) terminal events delivered, \(log.afterTerminal) values after the first")
    }
  }
}

/// Counts what a source that can pause produced (sequentially consistent, so that a callback compares it with what
/// it has run), and how many walks over it (or runs of an async body) started and ended for good: completed, or
/// found their subscription ended and returned.
final class SourceGauge: Sendable {
  private let count = Atomic<Int>(0)
  private let started = Atomic<Int>(0)
  private let ended = Atomic<Int>(0)

  init() {}

  func produce() { count.add(1, ordering: .sequentiallyConsistent) }

  var produced: Int { count.load(ordering: .sequentiallyConsistent) }

  func start() { started.add(1, ordering: .sequentiallyConsistent) }

  func end() { ended.add(1, ordering: .sequentiallyConsistent) }

  /// Whether every walk that started has ended. One that never started (its subscription disposed first) has
  /// nothing to end.
  var isIdle: Bool { ended.load(ordering: .sequentiallyConsistent) == started.load(ordering: .sequentiallyConsistent) }
}

/// `0..<count`, counted as it is read: a `Signal.from` source whose progress the scenarios see. Each iterator holds
/// a token that ends its walk on the gauge when the last copy of the iterator goes, that is when the walk that owns
/// it is released.
struct GaugedRange: Sequence, Sendable {
  let count: Int
  let gauge: SourceGauge

  struct Iterator: IteratorProtocol {
    var position = 0
    let count: Int
    let gauge: SourceGauge
    let token: ReleaseToken

    mutating func next() -> Int? {
      guard position < count else { return nil }
      gauge.produce()
      defer { position += 1 }
      return position
    }
  }

  func makeIterator() -> Iterator { Iterator(count: count, gauge: gauge, token: ReleaseToken(gauge)) }
}

/// Starts a walk on its gauge when it is made, and ends it when it is freed.
final class ReleaseToken: Sendable {
  let gauge: SourceGauge

  init(_ gauge: SourceGauge) {
    self.gauge = gauge
    gauge.start()
  }

  deinit { gauge.end() }
}

/// Busy for `microseconds`: a callback that takes time without giving its thread up, as real work would.
func spin(microseconds: Int) {
  guard microseconds > 0 else { return }
  let end = ContinuousClock.now.advanced(by: .microseconds(microseconds))
  while ContinuousClock.now < end {}
}

/// Where `received` first differs from `expected`, or `nil` when they are equal.
func sequenceProblem(_ received: [Int], _ expected: [Int], what: String) -> String? {
  guard received != expected else { return nil }
  let index = zip(received, expected).enumerated().first { $1.0 != $1.1 }?.offset ?? min(received.count, expected.count)
  let got = index < received.count ? "\(received[index])" : "nothing"
  let due = index < expected.count ? "\(expected[index])" : "nothing"
  return "\(received.count) values delivered of \(expected.count) \(what); at #\(index) \(got) where \(due) was due"
}
