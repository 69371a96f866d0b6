import AsyncSignals
import AsyncSignalsInterop

/// Flow control, issue 28: tasks `await subject.send(_:)` into a subject read by two bounded loops of different sizes
/// and an unbounded subscriber; senders are cancelled, and the subject completes while they wait.
///
/// The subject is a `Subject`, a `ReplaySubject` or a `BehaviorSubject`, in turn. A reference subscriber
/// (`subscribeNext`, unbounded: it never holds a sender back) records the subject's order. Two loops read it through
/// `.bounded(n)`, one small (n from 1 to 4) and one large (n from 4 to 16), each in a task of its own, taking values
/// with a yield now and then; each stops at a gate after a few values, until thread 1 opens it. In a third of the
/// iterations the small loop sends some of what it takes back into the subject with `await send` (from its own task:
/// it never waits for itself, but may for the large loop), and in another third both loops do: each may find the
/// other full of its values, and wait for it while the other waits in its own send (the sender that would close that
/// cycle goes on, counted). Once both loops have subscribed, thread 0 starts 4 sender tasks,
/// each sending 30 to 100 values `s·100,000 + i` in order with `await subject.send`, stopping once cancelled. Thread
/// 2 cancels up to two senders at random moments, often while they wait. Thread 1 waits until the loops are at
/// their gates, lets the senders fill them and wait, then either completes the subject there (half the iterations:
/// termination races waiting senders) or not, and opens the gates; otherwise thread 0 completes the subject once every
/// sender has returned. Thread 0 waits (10 s at most) for every sender task to return and both loops to end: the
/// crew's watchdog cannot see a suspended task, so a crew thread waits for each.
///
/// The twin (`LockHeldResumptions`) waits on demands that run their resumptions under their own lock: a loop that
/// makes room holds its demand's lock and waits for the subject's, which a sender registering with that demand holds.
struct SubjectSendRace: Scenario {
  static let returns =
    "every sender task returns, and both loops end, within 10 s (waiting senders are woken by room, cancellation or "
    + "termination)"
  static let lossless =
    "each loop receives exactly what the subject delivered, in the subject's order (the unbounded reference's)"
  static let perSender =
    "each sender's values reach the subject in order, without gaps: all of them unless it was cancelled or the subject "
    + "completed first"
  static let bound =
    "a loop's buffer never holds more than its bound plus one value per concurrent sender (the 4 tasks and the "
    + "echoing loops)"

  let name = "SubjectSend"
  let race =
    "4 tasks await subject.send into 2 bounded loops (1–4, 4–16), which send some values back, and an unbounded "
    + "subscriber; cancellations, and a completion racing waiting senders"
  let invariants = ["no deadlock", returns, lossless, perSender, bound]
  let sabotage = LockHeldResumptions.description

  static let senders = 4
  static let echo = 1_000_000

  func threads(requested: Int) -> Int { 3 }

  struct Figures {
    var terminatedWhileHeld = 0
    var cancelled = 0
    var beyondBound = [0, 0]
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "\(figures.terminatedWhileHeld) completions while the loops were held; \(figures.cancelled) senders "
      + "cancelled; high-water marks past the bound up to \(figures.beyondBound[0]) (small loop) and "
      + "\(figures.beyondBound[1]) (large loop)"
  }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let senders = Self.senders
    let perSender = 30 + random.below(71)
    let limits = [1 + random.below(4), 4 + random.below(13)]
    let gateAfter = [1 + random.below(3), 1 + random.below(3)]
    let terminates = random.oneIn(2)
    let echoing = random.below(3)  // how many loops send back: none, the small one, or both
    let cancelled = Set((0..<random.below(3)).map { _ in random.below(senders) })
    let seeds = (0..<2).map { _ in random.next() }
    let subject = SendingSubject(
      iteration.isSabotaged ? .twin : [.subject, .replay, .behavior][iteration.number % 3])
    let reference = Recorder<Int>()
    let referenceSubscription = immediately { reference.subscribe(to: subject.signal) }
    let gates = [AsyncGate(), AsyncGate()]
    let atGate = Latch()
    let loopsEnded = Latch()
    let sendersReturned = Latch()
    let start = AsyncGate()
    let sent = Tally()
    let tasks = Slots<Task<Void, Never>>(capacity: senders)
    let outcomes = LockedBox<[Int: BoundedOutcome]>([:])
    let heldAtCompletion = Flag()
    iteration.race(withCurrentScheduler: false) { thread, random in
      switch thread {
      case 0:
        for loop in 0..<2 {
          let (limit, seed) = (limits[loop], seeds[loop])
          Task.detached {
            var random = SplitMix(seed: seed)
            var seen = BoundedOutcome()
            var iterator = subject.makeLoop(limit: limit)
            do throws(StressFailure) {
              while let value = try await iterator.next() {
                seen.values.append(value)
                if seen.values.count == gateAfter[loop] {
                  atGate.signal()
                  await gates[loop].wait()
                }
                if loop < echoing, value < Self.echo, value % 100_000 % 4 == 0 {
                  // Back into the subject it reads, from its own task; each loop's echoes apart from the other's.
                  await subject.send(value + (loop + 1) * Self.echo)
                }
                if random.oneIn(2) {
                  for _ in 0..<random.below(4) { await Task.yield() }
                }
              }
            } catch {
              seen.failure = error.code
            }
            seen.highWaterMark = iterator.highWaterMark
            seen.overflow = iterator.overflowCount
            outcomes.withLock { $0[loop] = seen }
            loopsEnded.signal()
          }
        }
        guard waitUntil({ subject.subscriberCount == 3 }) else {  // the reference and the two loops
          iteration.fail(Self.returns, "the loops never subscribed")
          for gate in gates { gate.open() }
          start.open()
          return
        }
        for sender in 0..<senders {
          tasks.publish(
            Task.detached {
              await start.wait()
              for index in 0..<perSender {
                await subject.send(sender * 100_000 + index)
                sent.increment()
                if Task.isCancelled { break }
              }
              sendersReturned.signal()
            })
        }
        start.open()
        let returned = sendersReturned.wait(for: senders, seconds: 10)
        iteration.check(
          returned, Self.returns,
          "not every sender had returned within 10 s (\(sent.value) values sent; bounds \(limits))")
        if !terminates { subject.sendCompleted() }
        let ended = loopsEnded.wait(for: 2, seconds: 10)
        iteration.check(ended, Self.returns, "the loops had not both ended within 10 s of the completion")
        iteration.count(sent.value)
      case 1:
        // The loops take a few values and stop at their gates; the senders fill them and wait. Once one loop is held
        // the senders may wait for it before the other has taken enough to reach its gate: that one gets a moment.
        let held = atGate.wait(for: 1, seconds: 10)
        if held {
          _ = atGate.wait(for: 2, seconds: 0.05)
          _ = waitUntil(seconds: 0.05) { sent.value >= limits[0] + limits[1] }
          random.dawdle(64)
        }
        if terminates {
          if held { heldAtCompletion.set() }
          subject.sendCompleted()  // while the senders wait for the gated loops
        }
        random.dawdle(16)
        for gate in gates { gate.open() }
      default:
        for sender in cancelled.sorted() {
          while tasks.count <= sender { random.dawdle(1) }
          let after = random.below(perSender * senders)
          _ = waitUntil(seconds: 0.02) { sent.value >= after }
          tasks[sender].cancel()
        }
      }
    }
    referenceSubscription.dispose()
    let order = reference.values
    let seen = outcomes.value
    iteration.check(reference.isCompleted, Self.returns, "the reference never received the completion")
    for loop in 0..<2 {
      guard let outcome = seen[loop] else { continue }
      iteration.check(
        outcome.values == order && outcome.failure == nil, Self.lossless,
        "loop \(loop) (bound \(limits[loop])) received \(outcome.values.count) values of the \(order.count) the "
          + "subject delivered, or in another order")
      let concurrent = senders + echoing
      iteration.check(
        outcome.highWaterMark <= limits[loop] + concurrent, Self.bound,
        "loop \(loop): high-water mark \(outcome.highWaterMark), bound \(limits[loop]), \(concurrent) senders")
      Self.figures.withLock { figures in
        figures.beyondBound[loop] = max(figures.beyondBound[loop], outcome.highWaterMark - limits[loop])
      }
    }
    for sender in 0..<senders {
      let own = order.filter { $0 >= 0 && $0 < Self.echo && $0 / 100_000 == sender }
      let whole = own == (0..<own.count).map { sender * 100_000 + $0 }
      let complete = terminates || cancelled.contains(sender) || own.count == perSender
      iteration.check(
        whole && complete, Self.perSender,
        "sender \(sender) (\(cancelled.contains(sender) ? "cancelled" : "not cancelled"), "
          + "\(terminates ? "completion raced" : "completed after")): \(own.count) of \(perSender) values reached "
          + "the subject\(whole ? "" : ", with gaps or out of order")")
    }
    Self.figures.withLock { figures in
      if heldAtCompletion.isSet { figures.terminatedWhileHeld += 1 }
      figures.cancelled += cancelled.count
    }
  }
}

/// The subject under test: the library's (whose `send(_:) async` waits for its bounded loops) or the broken twin.
struct SendingSubject: Sendable {
  enum Kind: Sendable { case subject, replay, behavior, twin }

  let kind: Kind
  private let library: Subject<Int, StressFailure>?
  private let twin: TwinSendingSubject?

  init(_ kind: Kind) {
    self.kind = kind
    switch kind {
    case .subject: (library, twin) = (Subject(), nil)
    case .replay: (library, twin) = (ReplaySubject(capacity: 4), nil)
    case .behavior: (library, twin) = (BehaviorSubject(value: -1), nil)
    case .twin: (library, twin) = (nil, TwinSendingSubject())
    }
  }

  /// What subscribers subscribe to.
  var signal: Signal<Int, StressFailure> {
    if let library { return library }
    guard let twin else { preconditionFailure("SendingSubject: neither the library nor a twin") }
    return twin.subject
  }

  var subscriberCount: Int { library?.subscriberCount ?? twin?.subscriberCount ?? 0 }

  func send(_ value: Int) async {
    if let library { await library.send(value) } else { await twin?.send(value) }
  }

  func sendCompleted() {
    if let library { library.sendCompleted() } else { twin?.sendCompleted() }
  }

  /// A loop over `.bounded(limit)`: its first `next` subscribes, in the calling task.
  func makeLoop(limit: Int) -> SendLoopIterator {
    if let library {
      return SendLoopIterator(library: library.values(bufferingPolicy: .bounded(limit)).makeAsyncIterator())
    }
    guard let twin else { preconditionFailure("SendingSubject: neither the library nor a twin") }
    return SendLoopIterator(twin: TwinSendLoop.Iterator(TwinSendLoop(twin, limit: limit)))
  }
}

/// One loop's iterator, the library's or the twin's.
struct SendLoopIterator {
  private var library: SignalSequence<Int, StressFailure>.Iterator?
  private let twin: TwinSendLoop.Iterator?

  init(library: SignalSequence<Int, StressFailure>.Iterator) {
    self.library = library
    twin = nil
  }

  init(twin: TwinSendLoop.Iterator) {
    library = nil
    self.twin = twin
  }

  mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(StressFailure) -> Int? {
    if var iterator = library {
      defer { library = iterator }
      return try await iterator.next(isolation: actor)
    }
    return await twin?.next(isolation: actor)
  }

  var highWaterMark: Int { library?.highWaterMark ?? twin?.lifetime.loop.highWaterMark ?? 0 }

  var overflowCount: Int { library?.overflowCount ?? twin?.lifetime.loop.overflowCount ?? 0 }
}
