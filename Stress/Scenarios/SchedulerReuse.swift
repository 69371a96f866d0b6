import AsyncSignals
import Dispatch
import Synchronization

/// Isolated delivery into actors whose executor is a `QueueScheduler` made where a released scheduler lived, while
/// the released scheduler's queue lives on (issue 20, defect 1).
///
/// Each thread, round after round: makes a scheduler and keeps its queue alive without it (it holds the queue, or,
/// one time in three, only a repeating `DispatchSource` timer made on it), releases the scheduler, and at once makes
/// a new one, which the allocator usually places at the released address (the scenario counts how often). An actor
/// whose executor is the new scheduler subscribes to a subject with `subscribeNext(isolatedTo:)`, and three senders
/// send into it: blocks on the OLD queue (or the timer's handler there), blocks on the actor's own queue (delivered
/// at once when nothing is waiting), and the thread itself. Each round also runs a job on the actor (a `Task`) and
/// blocks on its queue that touch the actor's state outside the callbacks.
///
/// Where a callback runs is checked with a mark the scenario sets on every queue it makes (a key of its own, a value
/// no other queue gets), not with the library's recognition: before issue 20 that said "on the actor's executor" on
/// the old queue, and so did the runtime's `preconditionIsolated`, which asks the scheduler (the callback calls it
/// too, once the mark has placed it on its own queue, where the runtime must agree). A callback off its queue leaves
/// the actor's state alone (it is counted), so that the broken twin fails by the named invariant before
/// ThreadSanitizer sees a race; on its queue it appends to state kept in plain memory, which only the actor's queue
/// orders against the actor's other work (ThreadSanitizer checks it).
struct SchedulerReuseRace: Scenario {
  static let ownQueue =
    "a callback runs on its own actor's queue (by the scenario's mark), not on a queue that outlived its scheduler"
  static let oneAtATime = "nothing on an actor overlaps: its callbacks and its other work run one at a time"
  static let perSender =
    "every value sent arrives once, each sender's (old queue, actor's queue, thread) in the order sent"

  let name = "SchedulerReuse"
  let race =
    "threads release QueueSchedulers whose queues live on, put actors on new ones (at reused addresses), send from both"
  let invariants = [ownQueue, oneAtATime, perSender]
  let sabotage = AddressKeyedAtOnceDelivery.description

  static let rounds = 6
  static let sendsPerRound = 24
  /// The senders of each actor's subject.
  static let senderNames = ["the old queue", "the actor's queue", "the thread"]

  /// The scenario's own mark on every queue it makes: a key that is never released, and a value no other queue gets.
  static let queueMark = DispatchSpecificKey<Int>()
  static let marks = Atomic<Int>(0)

  // The figures of the report, over the whole run.
  static let schedulers = Atomic<Int>(0)
  static let reusedPaired = Atomic<Int>(0)
  static let reusedAny = Atomic<Int>(0)
  static let fromOldQueues = Atomic<Int>(0)
  static let atOnce = Atomic<Int>(0)

  func threads(requested: Int) -> Int { max(2, requested) }

  var report: String? {
    let made = Self.schedulers.load(ordering: .relaxed)
    return "address reuse: \(Self.reusedPaired.load(ordering: .relaxed)) of \(made) new schedulers landed where the "
      + "scheduler released just before lived, its queue still alive and sending "
      + "(\(Self.reusedAny.load(ordering: .relaxed)) at any released address); "
      + "\(Self.fromOldQueues.load(ordering: .relaxed)) values sent from old queues, "
      + "\(Self.atOnce.load(ordering: .relaxed)) callbacks ran inside a send made on their actor's queue (at once)"
  }

  struct Stamp: Sendable {
    let sender: Int
    let sequence: Int
  }

  /// What an actor's callbacks and other work record; touched only on the actor's queue.
  struct Log {
    var received: [Stamp] = []
    /// A block on the actor's queue is inside `sendNext`: a callback now is an at-once delivery.
    var sendingOnQueue = false
    var atOnce = 0
    var otherWork = 0
  }

  /// One actor on a new scheduler, its subject, and the queue that outlived the scheduler released before it.
  final class Pair: Sendable {
    let actor: QueueBackedActor
    let subject = Subject<Stamp, StressFailure>()
    /// The scenario's mark on the actor's queue, and on the old queue.
    let mark: Int
    let oldMark: Int
    /// The old queue, when the thread holds it (otherwise only its timer does).
    let oldQueue: DispatchQueue?
    let detector = OverlapDetector()
    let log = SerialState(Log())
    /// Callbacks called, on or off the queue (relaxed: it orders nothing).
    let arrivals = Atomic<Int>(0)
    let offQueue = Atomic<Int>(0)
    let offQueueSeenMark = Atomic<Int>(0)
    /// Each sender's next sequence number, touched by that sender alone (a serial queue, or the thread).
    let fromOldQueue = Atomic<Int>(0)
    let fromActorsQueue = Atomic<Int>(0)
    let fromThread = Atomic<Int>(0)

    init(actor: QueueBackedActor, mark: Int, oldMark: Int, oldQueue: DispatchQueue?) {
      self.actor = actor
      self.mark = mark
      self.oldMark = oldMark
      self.oldQueue = oldQueue
    }

    /// Sends the sender's next stamp; only `sender` calls it.
    func send(from sender: Int) {
      let sequence =
        switch sender {
        case 0: fromOldQueue.wrappingAdd(1, ordering: .relaxed).oldValue
        case 1: fromActorsQueue.wrappingAdd(1, ordering: .relaxed).oldValue
        default: fromThread.wrappingAdd(1, ordering: .relaxed).oldValue
        }
      subject.sendNext(Stamp(sender: sender, sequence: sequence))
    }

    /// What each sender sent; read once the senders are done.
    var sent: [Int] {
      [
        fromOldQueue.load(ordering: .relaxed), fromActorsQueue.load(ordering: .relaxed),
        fromThread.load(ordering: .relaxed),
      ]
    }
  }

  static func newMark(on queue: DispatchQueue) -> Int {
    let mark = marks.wrappingAdd(1, ordering: .relaxed).newValue
    queue.setSpecific(key: queueMark, value: mark)
    return mark
  }

  func iterate(_ iteration: Iteration) {
    let sabotaged = iteration.isSabotaged
    let pairs = (0..<iteration.threads).map { _ in Owned<[(pair: Pair, subscription: any Disposable)]>([]) }
    iteration.race { thread, random in
      var timers: [(any DispatchSourceTimer, DispatchSemaphore)] = []
      var released = Set<ObjectIdentifier>()
      for _ in 0..<Self.rounds {
        let old = Self.releasedScheduler(withTimer: random.oneIn(3), sabotaged: sabotaged)
        released.insert(old.address)
        let scheduler = QueueScheduler(name: "Stress.SchedulerReuse.new")  // usually at `old.address`
        Self.schedulers.wrappingAdd(1, ordering: .relaxed)
        if ObjectIdentifier(scheduler) == old.address { Self.reusedPaired.wrappingAdd(1, ordering: .relaxed) }
        if released.contains(ObjectIdentifier(scheduler)) { Self.reusedAny.wrappingAdd(1, ordering: .relaxed) }
        if sabotaged { AddressKeyedAtOnceDelivery.adopt(scheduler) }
        let pair = Pair(
          actor: QueueBackedActor(scheduler: scheduler), mark: Self.newMark(on: scheduler.queue), oldMark: old.mark,
          oldQueue: old.timer == nil ? old.queue : nil)
        let timer = old.timer
        pairs[thread].value.append((pair, subscribe(pair, sabotaged: sabotaged)))
        if let timer {
          let cancelled = DispatchSemaphore(value: 0)
          timer.setEventHandler { pair.send(from: 0) }
          timer.setCancelHandler { cancelled.signal() }
          timer.schedule(deadline: .now(), repeating: .microseconds(200), leeway: .microseconds(50))
          timer.resume()
          timers.append((timer, cancelled))
        }
        for _ in 0..<Self.sendsPerRound {
          switch random.below(3) {
          case 0 where pair.oldQueue != nil:
            pair.oldQueue?.async { pair.send(from: 0) }
          case 0, 1:
            scheduler.queue.async { Self.sendOnActorsQueue(pair) }
          default:
            pair.send(from: 2)
          }
          if random.oneIn(8) { random.dawdle(2) }
        }
        onActor(pair.actor) { _ in Self.otherWork(pair) }
        iteration.count(Self.sendsPerRound)
      }
      // The timers end here; what they sent is checked once the race is over.
      for (timer, cancelled) in timers {
        timer.cancel()
        cancelled.wait()  // the cancel handler runs on the old queue after the last event handler
      }
    }
    for (pair, subscription) in pairs.flatMap(\.value) {
      check(pair, iteration)
      subscription.dispose()
    }
  }

  /// Makes a scheduler, marks its queue, and releases the scheduler when it returns; the queue lives on in what it
  /// returns, and in the timer made on it if `withTimer` (which the caller alone keeps, once the round is over).
  private static func releasedScheduler(
    withTimer: Bool, sabotaged: Bool
  ) -> (queue: DispatchQueue, mark: Int, address: ObjectIdentifier, timer: (any DispatchSourceTimer)?) {
    let old = QueueScheduler(name: "Stress.SchedulerReuse.old")
    if sabotaged { AddressKeyedAtOnceDelivery.adopt(old) }
    let timer = withTimer ? DispatchSource.makeTimerSource(queue: old.queue) : nil
    return (old.queue, newMark(on: old.queue), ObjectIdentifier(old), timer)
  }

  private func subscribe(_ pair: Pair, sabotaged: Bool) -> any Disposable {
    let next: @Sendable (isolated QueueBackedActor, Stamp) -> Void = { actor, stamp in
      defer { pair.arrivals.wrappingAdd(1, ordering: .relaxed) }
      guard pair.detector.enter() else { return }
      defer { pair.detector.exit() }
      let mark = DispatchQueue.getSpecific(key: Self.queueMark)
      guard mark == pair.mark else {
        // Off the actor's queue: the actor may be running its other work right now. Leave its state alone.
        pair.offQueue.wrappingAdd(1, ordering: .relaxed)
        pair.offQueueSeenMark.store(mark ?? -1, ordering: .relaxed)
        return
      }
      // On its queue, the runtime must agree (it asks the scheduler). It is no check off the queue: before issue 20
      // the scheduler answered yes on the old queue too, so only the scenario's mark above decides there.
      actor.preconditionIsolated("SchedulerReuse: the runtime does not recognise the actor's own queue")
      pair.log.value.received.append(stamp)
      if pair.log.value.sendingOnQueue { pair.log.value.atOnce += 1 }
    }
    return sabotaged
      ? AddressKeyedAtOnceDelivery.subscribeNext(pair.subject, isolatedTo: pair.actor, on: pair.actor.scheduler, next)
      : pair.subject.subscribeNext(isolatedTo: pair.actor, next, error: { _, _ in }, completed: { _ in })
  }

  /// A block on the actor's queue: other work of the actor, which sends from there.
  private static func sendOnActorsQueue(_ pair: Pair) {
    guard pair.detector.enter() else { return }
    defer { pair.detector.exit() }
    pair.log.value.otherWork += 1
    pair.log.value.sendingOnQueue = true
    pair.send(from: 1)
    pair.log.value.sendingOnQueue = false
  }

  /// A job of the actor that is not a callback.
  private static func otherWork(_ pair: Pair) {
    guard pair.detector.enter() else { return }
    defer { pair.detector.exit() }
    pair.log.value.otherWork += 1
  }

  private func check(_ pair: Pair, _ iteration: Iteration) {
    pair.oldQueue?.sync {}  // the blocks sent from the old queue have run
    pair.actor.scheduler.queue.sync {}  // and those on the actor's queue
    let sent = pair.sent
    let total = sent.reduce(0, +)
    let arrived = waitUntil { pair.arrivals.load(ordering: .relaxed) >= total }
    let final = Owned(Log())
    onActor(pair.actor) { _ in final.value = pair.log.value }
    let log = final.value
    Self.fromOldQueues.wrappingAdd(sent[0], ordering: .relaxed)
    Self.atOnce.wrappingAdd(log.atOnce, ordering: .relaxed)
    let offQueue = pair.offQueue.load(ordering: .relaxed)
    iteration.check(
      offQueue == 0, Self.ownQueue,
      "\(offQueue) callbacks ran off their actor's queue (mark \(pair.mark)); one on the queue marked "
        + "\(pair.offQueueSeenMark.load(ordering: .relaxed)) (the old queue's mark is \(pair.oldMark))")
    iteration.check(
      pair.detector.count == 0, Self.oneAtATime,
      "\(pair.detector.count) callbacks or jobs started while another one ran on the actor")
    guard offQueue == 0, pair.detector.count == 0 else { return }  // what they skipped is missing below
    guard arrived else {
      iteration.fail(
        Self.perSender, "\(pair.arrivals.load(ordering: .relaxed)) of \(total) values arrived within 10 s")
      return
    }
    var due = [0, 0, 0]
    for stamp in log.received {
      guard stamp.sequence == due[stamp.sender] else {
        iteration.fail(
          Self.perSender,
          "from \(Self.senderNames[stamp.sender]): #\(stamp.sequence) arrived when #\(due[stamp.sender]) was due")
        return
      }
      due[stamp.sender] += 1
    }
    iteration.check(
      due == sent, Self.perSender, "arrived per sender \(due), sent \(sent) (old queue, actor's queue, thread)")
  }
}
