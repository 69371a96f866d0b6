import Synchronization

// A subject's send that waits: `send(_:) async` (flow control).
//
// `sendNext` never waits: a foreign synchronous sender is never made to wait (Core/Demand.swift), and its excess
// beyond a bounded consumer's room is buffered and counted. `send(_:) async` is the producer that can wait: it
// suspends while a bounded subscriber of the subject has no room, then sends as `sendNext` does.
//
// - Who holds a sender back: every subscriber under a bounded consumer whose demand has no room, except the consumers
//   that the sending task runs itself (`Demand.consumerTask`, recorded at each `next()` of a loop this subject holds),
//   and those whose task waits in a send of its own that this task's loop holds back (a cycle of waits among the
//   subject's loops, which only going on can break). So the fullest bounded subscriber governs; a subscriber without
//   a bounded consumer (an unbounded or dropping loop, a `subscribeNext`) never holds a sender back; and a loop body
//   that sends into the subject it reads goes on, its excess counted, since only its own task could make the room it
//   would wait for. (A child task that the loop awaits is another task: its send waits for the loop, and the loop
//   for it. That cycle is the program's, and the library cannot see it: see `Subject.send(_:)`.)
// - The fast path: with no bounded subscriber, one atomic load (`boundedCount`), then `sendNext`. With bounded
//   subscribers that all have room, the state lock and a load of each one's room, specialised where the subject is
//   used; only when one has no room does the sender look for its task's own loops and, if it must, wait.
// - The result: the word that load reads (read again after a wait) also says whether the subject ever had a bounded
//   subscriber and whether it has terminated, so the send reports `.loopsEnded` or `.terminated` at no extra cost.
//   Its loops' end is seen at once by a sender they held back: a loop's cancellation disposes its subscription (which
//   removes it from the side list) before it releases the senders waiting for it.
// - Waiting: the sender registers a wake-up with the demand of the first subscriber that holds it back, in the hold
//   of the state lock that finds it (so that a terminal event cannot slip in between), and suspends. The demand's
//   lock nests inside the state lock there; that is safe because a demand never calls out under its lock (its
//   resumptions run after it is released), and it is why a demand must never do so.
// - The wake-up (`look`) runs where the room was made, on the consumer's thread: it looks again, registers the sender
//   with the next subscriber that still holds it back if there is one, and resumes the sender only once none does.
//   So a sender held back by two loops is not resumed, only to suspend again, each time one of them makes room.
// - A resumed sender looks again before it sends (a wake-up is a prompt, not a promise of room): each sender sends at
//   most one value past a check that found room, so concurrent senders overshoot the bound by at most one value each.
// - A sender is resumed once, by the first of: the wake-up that finds nothing holding it back; the subject's terminal
//   event (its send then returns, and the value goes nowhere, as a send after a terminal event does); its task's
//   cancellation (it stops waiting and sends, so that nothing is silently lost: the consumer counts the excess). Each
//   of them takes the sender's continuation under the state lock and resumes it after releasing the lock.

/// The demand of a subject's subscriber under a bounded consumer, in the state's side list.
@usableFromInline
struct BoundedSubscriber: Sendable {
  /// The subscriber's sink.
  let sink: ObjectIdentifier
  @usableFromInline let demand: Demand

  init(sink: ObjectIdentifier, demand: Demand) {
    self.sink = sink
    self.demand = demand
  }
}

/// Where a subject's state publishes what `send(_:) async` needs to know without its lock: how many bounded
/// subscribers it has, whether it ever had one, and whether it has terminated. One word, an atomic in the storage's
/// turn allocation, which outlives the state: zero while the subject has never had a bounded subscriber and has not
/// terminated, so that the send's fast path is one load.
@usableFromInline
struct BoundedCount: @unchecked Sendable {
  // guarded by: atomicity — the one stored property points to an `Atomic`, and is only ever used to load or store it;
  // every store is made under the subject's state lock, so a load and a store there cannot lose a flag.
  @usableFromInline let pointer: UnsafeMutablePointer<Atomic<Int>>

  /// Set once a bounded subscriber has been recorded, and kept: a send that finds no bounded subscriber then knows
  /// that every loop it could have waited for has ended.
  @usableFromInline static var hadBoundedSubscriber: Int { 1 }
  /// Set when the subject terminates.
  @usableFromInline static var terminated: Int { 2 }
  /// The count of bounded subscribers is stored above the two flags.
  @usableFromInline static var countShift: Int { 2 }

  @usableFromInline
  init(_ pointer: UnsafeMutablePointer<Atomic<Int>>) {
    self.pointer = pointer
  }

  /// Publishes `count` bounded subscribers, keeping the flags. Under the state lock.
  func store(_ count: Int) {
    var flags = pointer.pointee.load(ordering: .relaxed) & (Self.hadBoundedSubscriber | Self.terminated)
    if count > 0 { flags |= Self.hadBoundedSubscriber }
    pointer.pointee.store(count << Self.countShift | flags, ordering: .releasing)
  }

  /// Publishes that the subject has terminated. Under the state lock.
  @usableFromInline
  func storeTerminated() {
    let word = pointer.pointee.load(ordering: .relaxed)
    pointer.pointee.store(word | Self.terminated, ordering: .releasing)
  }

  /// What a send that read `word` before sending reports.
  @inlinable
  static func result(_ word: Int) -> SendResult {
    if word & terminated != 0 { return .terminated }
    if word >> countShift == 0 && word & hadBoundedSubscriber != 0 { return .loopsEnded }
    return .sent
  }
}

/// A sender suspended in a subject's `send(_:) async`, waiting for a bounded subscriber to have room.
@usableFromInline
final class WaitingSender: @unchecked Sendable {
  // guarded by: the state lock of the subject it sends to — every `var`; `task` is a `let`.
  /// The sending task (`Demand.currentTask`): the consumers it runs itself never hold it back.
  let task: Int
  /// Set when it suspends; taken by whoever resumes it.
  var continuation: CheckedContinuation<Void, Never>?
  /// Its wake-up's registration with the demand it waits for, to withdraw if something else resumes it.
  var registration: (demand: Demand, id: UInt64)?
  /// Resumed, or to be resumed at once if it has not suspended yet: nothing else may resume it.
  var isDone = false

  init(task: Int) {
    self.task = task
  }
}

/// The senders a terminal event frees: their continuations to resume, and their wake-ups to withdraw, once the state
/// lock is released.
@usableFromInline
struct FreedSenders: @unchecked Sendable {
  // guarded by: ownership — taken from the state under its lock, then used by the one thread that took them.
  private var continuations: [CheckedContinuation<Void, Never>] = []
  private var registrations: [(demand: Demand, id: UInt64)] = []

  init() {}

  @usableFromInline
  var isEmpty: Bool { continuations.isEmpty }

  mutating func free(_ sender: WaitingSender) {
    sender.isDone = true
    if let continuation = sender.continuation { continuations.append(continuation) }
    if let registration = sender.registration { registrations.append(registration) }
    sender.continuation = nil
    sender.registration = nil
  }

  /// Withdraws their wake-ups and resumes them. Call it with the state lock released.
  @usableFromInline
  func resume() {
    for registration in registrations { _ = registration.demand.withdraw(registration.id) }
    for continuation in continuations { continuation.resume() }
  }
}

extension SubjectState {
  /// `attached(_:)` for a subscriber under a bounded consumer: records `demand` beside the list if the sink is
  /// recorded.
  @usableFromInline
  mutating func attached(_ sink: Sink<Value, Failure>, demand: Demand) -> Replay {
    let before = subscribers.count
    let replay = attached(sink)
    if subscribers.count > before {
      demand.trackConsumer()  // so that a send from the loop's own task never waits for it, whichever task that is
      bounded.append(BoundedSubscriber(sink: ObjectIdentifier(sink), demand: demand))
      boundedCount.store(bounded.count)
    }
    return replay
  }

  /// Forgets the demand of `sink`, if it is a bounded subscriber (it was disposed).
  @usableFromInline
  mutating func removeBounded(_ sink: SinkCore) {
    guard let index = bounded.firstIndex(where: { $0.sink == ObjectIdentifier(sink) }) else { return }
    bounded.remove(at: index)
    boundedCount.store(bounded.count)
  }

  /// The subject terminates: no subscriber holds a sender back any more, and the waiting senders are freed.
  @usableFromInline
  mutating func endFlowControl() -> FreedSenders {
    var freed = FreedSenders()
    guard !bounded.isEmpty || !waitingSenders.isEmpty else { return freed }
    bounded = []
    boundedCount.store(0)
    for sender in waitingSenders { freed.free(sender) }
    waitingSenders = []
    return freed
  }

  /// Whether a bounded subscriber has no room, whichever task sends: `send(_:) async`'s check, inlined where the
  /// subject is used, so that it runs specialised (no generic metadata to look up) while every loop has room.
  @inlinable
  var hasFullBoundedSubscriber: Bool {
    terminal == nil && bounded.contains { !$0.demand.hasRoom }
  }

  /// Whether a bounded subscriber holds back a sender in `task`: one that has no room, and whose consumer neither is
  /// `task` nor waits for it (`waits(_:for:)`).
  func holdsBack(_ task: Int) -> Bool {
    terminal == nil && bounded.contains { !$0.demand.hasRoom && !waits($0.demand.consumerTask, for: task) }
  }

  /// Whether the task `consumer` is `task`, or waits for it: suspended in a send into this subject that a loop run by
  /// `task` holds back, directly or through other senders of this subject that wait in turn. A sender in `task` that
  /// waited for such a consumer's loop would close a cycle of waits that no room can break (two loops of the subject
  /// that each send back into it, each full of the other's values), so it goes on instead, and the loop counts its
  /// excess. Cycles through another subject or another lock are the program's: this subject cannot see them.
  func waits(_ consumer: Int, for task: Int) -> Bool {
    var current = consumer
    var steps = 0
    while current != task {
      // A task has one send in progress at a time: each step follows the one sender of `current`, if it waits.
      guard steps < waitingSenders.count,
        let next = waitingSenders.first(where: { $0.task == current && !$0.isDone })?.registration?.demand.consumerTask
      else { return false }
      current = next
      steps += 1
    }
    return true
  }

  /// Registers `wake` with the demand of the first bounded subscriber that holds `sender` back, and records the
  /// registration; `false` if none does (or the subject has terminated). Each demand answers for itself, under its
  /// own lock (`resume(whenRoom:)` registers nothing where there is room), so a wake-up asks again the demand that
  /// woke it: a wake-up is a prompt to look again, not a promise of room. The demand's lock nests in the state's
  /// here, which is safe because a demand calls nothing under its lock: it runs its resumptions after releasing it.
  mutating func hold(_ sender: WaitingSender, wake: @escaping Demand.Resumption) -> Bool {
    guard terminal == nil else { return false }
    for entry in bounded where !waits(entry.demand.consumerTask, for: sender.task) {
      guard let id = entry.demand.resume(whenRoom: wake) else { continue }  // room: look further
      sender.registration = (entry.demand, id)
      return true
    }
    return false
  }

  mutating func removeWaiting(_ sender: WaitingSender) {
    if let index = waitingSenders.firstIndex(where: { $0 === sender }) { waitingSenders.remove(at: index) }
  }
}

extension SubjectStorage {
  /// The word `BoundedCount` publishes: `send(_:) async`'s fast path, one load. Zero while the subject has never had a
  /// bounded subscriber and has not terminated.
  @inlinable
  var sendWord: Int {
    boundedCount.pointee.load(ordering: .acquiring)
  }

  /// Whether `word` counts a subscriber under a bounded consumer, which may hold a sender back.
  @inlinable
  static func hasBoundedSubscribers(_ word: Int) -> Bool {
    word >> BoundedCount.countShift != 0
  }

  /// Whether one of the bounded subscribers has no room: then `room()` looks for the ones that hold this sender back.
  @inlinable
  var hasFullBoundedSubscriber: Bool {
    state.withLock { $0.hasFullBoundedSubscriber }
  }

  /// Suspends the calling task while a bounded subscriber holds it back (see the top of this file); returns at once
  /// when none does, when the subject has terminated, or when the task is cancelled.
  @usableFromInline
  nonisolated(nonsending) func room() async {
    let task = Demand.currentTask
    while !Task.isCancelled && state.withLock({ $0.holdsBack(task) }) {
      let sender = WaitingSender(task: task)
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          if !wait(sender, continuation) { continuation.resume() }
        }
      } onCancel: {
        stopWaiting(sender)
      }
    }
  }

  /// Registers `sender`, which holds `continuation`, with a subscriber that holds it back; `false` if none does any
  /// more, or it was cancelled already: resume it at once.
  private func wait(_ sender: WaitingSender, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
    state.withLock { state in
      guard !sender.isDone else { return false }
      guard state.hold(sender, wake: { self.look(sender) }) else {
        sender.isDone = true
        return false
      }
      sender.continuation = continuation
      state.waitingSenders.append(sender)
      return true
    }
  }

  /// `sender`'s wake-up: the demand it waited for may have room. Runs where the room was made, with that demand's lock
  /// released. Registers the sender with the next subscriber that holds it back, if any; otherwise resumes it.
  private func look(_ sender: WaitingSender) {
    let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !sender.isDone else { return nil }
      sender.registration = nil  // it has run
      if state.hold(sender, wake: { self.look(sender) }) { return nil }
      sender.isDone = true
      state.removeWaiting(sender)
      defer { sender.continuation = nil }
      return sender.continuation
    }
    continuation?.resume()
  }

  /// The sending task was cancelled: it stops waiting (and sends, as the caller goes on).
  private func stopWaiting(_ sender: WaitingSender) {
    let (continuation, registration) = state.withLock {
      state -> (CheckedContinuation<Void, Never>?, (demand: Demand, id: UInt64)?) in
      guard !sender.isDone else { return (nil, nil) }
      sender.isDone = true
      state.removeWaiting(sender)
      defer {
        sender.continuation = nil
        sender.registration = nil
      }
      return (sender.continuation, sender.registration)
    }
    if let registration { _ = registration.demand.withdraw(registration.id) }
    continuation?.resume()
  }
}
