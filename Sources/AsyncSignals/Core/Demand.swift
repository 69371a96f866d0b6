import Synchronization

// Flow control: how a bounded consumer's room reaches the sources that can pause.
//
// A consumer that bounds its buffer (`values(bufferingPolicy: .bounded(n))`) makes a `Demand` and attaches to its
// signal with an observer that carries it. Operators that send at most one value per value they receive, on the
// thread that sent it (`map`, `filter`, `take`, `scan`, `doNext`, …), build their upstream observer with the same
// demand; every other operator builds it without one, which ends the pause there (the sources above it run
// unpaused, and whatever reaches the full consumer is buffered and counted). A source the library drives
// (`Signal.from`, `MemoizedSequence.signal(on:)`) reads `hasRoom` before each value; finding none, it stops and
// registers a resumption: register, then re-check, so that room made in between is never missed. A producer in a
// task (`Subscriber.send(_:)`, `AsyncSequence.signal`) suspends until there is room instead.
//
// The invariant: flow control never blocks a thread. A paused source has returned from every call; a suspended
// producer has given its thread back to the pool; a foreign synchronous sender (a subject's `sendNext`, a
// `create` body) is never made to wait — its excess is buffered and counted. So flow control adds no wait to any
// lock, turn or executor, and cannot take part in a cycle that hangs. When the consumer ends (its loop is left,
// its task cancelled, or the signal terminates), every registered resumption runs at once.
//
// A composable demand (flow control, part 2) is a demand with a parent and a limit: the room of a stage between
// the source and the consumer that holds values or inners of its own — a hop (`deliver(on:)`), bounded
// concurrency (`flatten(maxConcurrent:)`). It has room when its parent has room and its own count is under its
// limit; its owner takes one (`take()`) for each value it holds or inner it runs and gives it back (`release()`)
// when that is done. A producer above such a stage reads `hasRoom` as before. A resumption it registers waits on the
// stage when the stage is full, and is forwarded to the parent otherwise (the parent is what has no room then); the
// two locks are never held together. A resumption is a wake-up, not a promise of room: the producer checks again,
// and registers again if it must. A stage's resumptions run where its owner says (`resumeOn`): a hop's run off the
// thread that made the room, so that a paused source never resumes on the hop's scheduler (the main queue, behind
// `deliverOnMainThread()`).
//
// A subject's `send(_:) async` (issue 28) waits on the demands of its bounded subscribers: it registers a resumption
// with one that has no room, under the subject's state lock, which is why a demand never calls out under its own lock
// (its lock is a leaf: nothing is called while it is held). A demand also knows its consumer's task, recorded when the
// consumer subscribes, so that a sender in that task is never held back by the loop it runs itself: only that task can
// make room there.
//
// The consumer numbers each change of its demand: a change is applied only if its number is higher than the last
// one applied, so that the open flag follows the buffer's count in order even when a close decided on the
// producer's thread reaches the demand after a later reopening decided on the consumer's. So the consumer may open
// and close it after releasing its own lock; only the close that ends a loop is made under that lock, in the step
// that stops the buffer keeping values, so that no running source produces into a buffer that drops.

/// The room a bounded consumer has for more values, as the sources that can pause see it (see the comment above); or
/// the room of a stage between them, composed with its parent's.
@usableFromInline
package final class Demand: Sendable {
  /// A resumption registered by a paused source or a suspended producer.
  @usableFromInline
  package typealias Resumption = @Sendable () -> Void

  /// A registered resumption, and whether it runs or queues a producer the library drives (a walk): a stage that
  /// must not do that on the thread that makes its room (`resumeOn`) sends those there, and runs the others (a
  /// continuation to resume) at once.
  ///
  /// A walk with a queue of its own goes there too, though queueing it from the releasing thread would cost one
  /// wake-up less: queued from a hop's thread, the reader's blocks were made on that thread, and the peak memory of
  /// a reader → hop → bounded loop pipeline grew with the length of the run, with the heap in use unchanged (glibc's
  /// per-thread arenas: Benchmarks README, "FlowMemory: the hop's peak, found").
  @usableFromInline
  struct Registration: Sendable {
    let id: UInt64
    let resume: Resumption
    let runsProducer: Bool
  }

  @usableFromInline
  struct State: Sendable {
    var resumptions: [Registration] = []
    var ended = false
    /// The number of the last change applied by `close(generation:)` or `reopen(generation:)`.
    var generation: UInt64 = 0
  }

  /// Registration numbers, unique in the process, so that a registration forwarded to a parent is withdrawn from
  /// the demand that holds it.
  private static let registrations = Atomic<UInt64>(0)

  /// Whether this demand's own room is open (the consumer's, or a stage's count under its limit): written under
  /// `state`'s lock, read without it before each value. `hasRoom` also asks the parent.
  @usableFromInline let open = Atomic<Bool>(true)
  private let state = LockedState(State())  // guards the resumptions, `ended`, `generation`, and `open`'s changes
  /// A stage's values or inners in hand (`take()`, `release()`); always 0 for a consumer's demand. Counted without
  /// the lock: a stage's owner takes and releases for each value, and only crossing the limit (closing) or
  /// `reopenAt` (reopening) takes the lock (see `take()`).
  @usableFromInline let taken = Atomic<Int>(0)
  /// The demand of the stage below, whose room this one's includes; `nil` for a consumer's.
  @usableFromInline let parent: Demand?
  /// How many values or inners a stage may hold before it has no room (`Int.max` for a consumer's demand).
  @usableFromInline let limit: Int
  /// How few a full stage must hold again before it reopens: `limit - 1` (at once) unless its owner asks for less.
  @usableFromInline let reopenAt: Int
  /// Where a stage runs the resumptions that its `release()` frees and that run or queue their producer
  /// (`Registration.runsProducer`): `nil` runs them on the releasing thread.
  private let resumeOn: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
  /// The task that reads the consumer's buffer (`Demand.currentTask`; 0 until recorded): a consumer's only.
  @usableFromInline let consumer = Atomic<Int>(0)
  /// Whether the consumer must record its task at each call that takes a value (`tracksConsumer`): a consumer's only.
  @usableFromInline let tracking = Atomic<Bool>(false)
  /// How many values the stages of the chain may put past the consumer's bound by design, though their sources
  /// paused (`slack`): a consumer's only.
  @usableFromInline let stagesSlack = Atomic<Int>(0)

  /// A consumer's demand.
  @usableFromInline
  package init() {
    parent = nil
    limit = .max
    reopenAt = .max
    resumeOn = nil
  }

  /// A stage's demand: room while `parent` has room and fewer than `limit` are taken. Once full, it reopens when
  /// `reopenAt` or fewer are taken (by default as soon as one is released). `resumeOn` runs the resumptions a
  /// `release()` frees, if they must not run on the releasing thread.
  @usableFromInline
  package init(
    parent: Demand, limit: Int, reopenAt: Int? = nil,
    resumeOn: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
  ) {
    precondition(limit > 0, "Demand(parent:limit:): limit must be positive")
    self.parent = parent
    self.limit = limit
    self.reopenAt = Swift.min(reopenAt ?? limit - 1, limit - 1)
    self.resumeOn = resumeOn
  }

  /// Whether another value may be produced: this demand's own room, and its parent's.
  @inlinable
  package var hasRoom: Bool {
    hasOwnRoom && (parent?.hasRoom ?? true)
  }

  @usableFromInline
  var hasOwnRoom: Bool { open.load(ordering: .acquiring) }

  // MARK: The consumer's task

  /// The identity of the current task (0 outside any task): see `currentTaskState`.
  @inlinable
  package static var currentTask: Int {
    currentTaskState.task
  }

  /// The identity of the current task (0 outside any task), and whether it is cancelled, in one call to the runtime.
  /// The identity is the address of the task's object, unique among the tasks alive at once: its bits, copied out of
  /// `UnsafeCurrentTask` without retaining it (its `hashValue` would cost a hash per call, and the consumer asks for
  /// each value while it tracks its task).
  @inlinable
  package static var currentTaskState: (task: Int, isCancelled: Bool) {
    withUnsafeCurrentTask { task in
      guard let task else { return (0, false) }
      return (unsafeBitCast(task, to: Int.self), task.isCancelled)
    }
  }

  /// Records the current task as the one that reads the consumer's buffer: call it in that task, as it subscribes.
  @usableFromInline
  package func recordConsumer() {
    recordConsumer(Self.currentTask)
  }

  /// Records `task` as the one that reads the consumer's buffer.
  @inlinable
  package func recordConsumer(_ task: Int) {
    root.consumer.store(task, ordering: .relaxed)
  }

  /// The consumer's demand at the end of the chain (this one, for a consumer's).
  @usableFromInline
  package var root: Demand {
    parent?.root ?? self
  }

  /// Whether the consumer records its task at every call that takes a value (`next()`), and not only as it
  /// subscribes: set once a subject whose `await send(_:)` asks for it holds this demand. The iterator may move to
  /// another task after its first call (a model that primes it in one task and loops in another); a loop's own send
  /// must then still find its task recorded, or it would wait for itself.
  @inlinable
  package var tracksConsumer: Bool {
    tracking.load(ordering: .relaxed)
  }

  /// Asks the consumer to record its task at every call that takes a value (see `tracksConsumer`).
  package func trackConsumer() {
    let root = root
    if !root.tracking.load(ordering: .relaxed) { root.tracking.store(true, ordering: .relaxed) }
  }

  /// How many values the stages between the sources and the consumer may put past the consumer's bound by design,
  /// though every source paused: each hop the values it holds (`deliver(on:)`: 32), bounded concurrency one value per
  /// inner sending from a thread of its own, less one. The consumer counts as overflow only what goes past its bound
  /// and this: what a sender that could not pause put there.
  @usableFromInline
  package var slack: Int {
    root.stagesSlack.load(ordering: .relaxed)
  }

  /// A stage of the chain may put `count` values past the consumer's bound (negative: a stage that has ended gives
  /// its slack back).
  @usableFromInline
  package func addSlack(_ count: Int) {
    root.stagesSlack.add(count, ordering: .relaxed)
  }

  /// The task that reads the consumer's buffer (a stage's: its consumer's), 0 if none was recorded. A sender running
  /// in that task waits for it in vain: only that task can make room.
  package var consumerTask: Int {
    parent?.consumerTask ?? consumer.load(ordering: .relaxed)
  }

  // MARK: Producers

  /// Registers `resumption` to run once there may be room again, or the consumer has ended; `nil`, without
  /// registering, if there is room now — the caller goes on producing. The resumption runs once; the producer then
  /// checks again (it may find a stage's parent full, and register again). `runsProducer`: the resumption runs or
  /// queues a producer the library drives, rather than resuming a task (see `Registration`).
  @usableFromInline
  package func resume(whenRoom resumption: @escaping Resumption, runsProducer: Bool = false) -> UInt64? {
    let registered = state.withLock { state -> UInt64?? in
      guard !state.ended else { return .some(nil) }
      guard !open.load(ordering: .relaxed) else { return nil }  // own room: the parent decides
      let id = Self.registrations.add(1, ordering: .relaxed).newValue
      state.resumptions.append(Registration(id: id, resume: resumption, runsProducer: runsProducer))
      return .some(id)
    }
    if let registered { return registered }
    // This demand has room of its own: any lack of room is the parent's. Asked with this lock released.
    return parent?.resume(whenRoom: resumption, runsProducer: runsProducer)
  }

  /// Withdraws a registration; returns its resumption if it had not run yet (the caller may run it).
  @usableFromInline
  package func withdraw(_ id: UInt64) -> Resumption? {
    let resumption = state.withLock { state -> Resumption? in
      guard let index = state.resumptions.firstIndex(where: { $0.id == id }) else { return nil }
      return state.resumptions.remove(at: index).resume
    }
    return resumption ?? parent?.withdraw(id)
  }

  /// Suspends the calling task until there is room, the consumer has ended, or the task is cancelled.
  ///
  /// `nonisolated(nonsending)`: it runs in the caller's isolation, so a producer on the main actor (a bounded
  /// observation, say) that finds room returns without leaving the main actor, and one that waits resumes there.
  @usableFromInline
  nonisolated(nonsending) package func room() async {
    while !hasRoom {
      if Task.isCancelled { return }
      let registration = Atomic<UInt64>(0)  // 0: not registered (yet, or at all)
      let waited = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
          if let id = resume(whenRoom: { continuation.resume(returning: true) }) {
            registration.store(id, ordering: .releasing)
            if Task.isCancelled, let resumption = withdraw(id) { resumption() }
          } else {
            continuation.resume(returning: false)
          }
        }
      } onCancel: {
        let id = registration.load(ordering: .acquiring)
        if id != 0, let resumption = withdraw(id) { resumption() }
      }
      if !waited { return }  // room, or the consumer has ended
    }
  }

  // MARK: A stage

  /// A stage takes one more value or inner in hand; it has no room once it holds `limit`.
  ///
  /// The count is an atomic, so that a value costs no lock round trip: only the take that reaches the limit takes the
  /// lock, to close. Closing and a release that brings the count down race without the lock; both are sequentially
  /// consistent, so one of them sees the other: either the release sees the stage closed (and reopens it), or the
  /// close sees the count down (and reopens it itself).
  @inlinable
  package func take() {
    if taken.add(1, ordering: .relaxed).newValue >= limit { closeIfFull() }
  }

  /// A stage is done with `count` values or inners: reopened (`reopenAt` or fewer held), it frees the resumptions
  /// waiting on it (see `resumeOn`), with the lock released. Only the release that finds the stage closed and its
  /// count at `reopenAt` or below takes the lock.
  @inlinable
  package func release(_ count: Int = 1) {
    let held = taken.subtract(count, ordering: .sequentiallyConsistent).newValue
    if held <= reopenAt && !open.load(ordering: .sequentiallyConsistent) { reopenIfRoom() }
  }

  /// `take()` reached the limit: closes, unless the count is below it again or the stage has ended.
  @usableFromInline
  func closeIfFull() {
    let resumptions = state.withLock { state -> [Registration] in
      guard !state.ended, open.load(ordering: .relaxed), taken.load(ordering: .relaxed) >= limit else { return [] }
      open.store(false, ordering: .sequentiallyConsistent)
      // A release may have brought the count down without seeing the stage closed: it reopens here, then.
      guard taken.load(ordering: .sequentiallyConsistent) <= reopenAt else { return [] }
      open.store(true, ordering: .releasing)
      defer { state.resumptions = [] }
      return state.resumptions
    }
    run(resumptions)
  }

  /// A release found the stage closed at `reopenAt` or fewer: reopens it, unless another did already.
  @usableFromInline
  func reopenIfRoom() {
    let resumptions = state.withLock { state -> [Registration] in
      guard !open.load(ordering: .relaxed), taken.load(ordering: .relaxed) <= reopenAt else { return [] }
      open.store(true, ordering: .releasing)
      defer { state.resumptions = [] }
      return state.resumptions
    }
    run(resumptions)
  }

  /// Runs a stage's freed resumptions: those that run or queue a producer where `resumeOn` says, the others here.
  private func run(_ resumptions: [Registration]) {
    guard !resumptions.isEmpty else { return }
    guard let resumeOn else {
      for registration in resumptions { registration.resume() }
      return
    }
    let producers = resumptions.filter(\.runsProducer).map(\.resume)
    for registration in resumptions where !registration.runsProducer { registration.resume() }
    if !producers.isEmpty { resumeOn { for resumption in producers { resumption() } } }
  }

  // MARK: The consumer

  /// The consumer is full: producers that can pause stop before their next value. Ignored if a later change (a
  /// higher `generation`) has been applied already, or the consumer has ended.
  @usableFromInline
  package func close(generation: UInt64) {
    state.withLock { state in
      guard !state.ended, generation > state.generation else { return }
      state.generation = generation
      open.store(false, ordering: .releasing)
    }
  }

  /// The consumer has room again: returns the resumptions of the paused producers, for the caller to run. Ignored
  /// (nothing returned) if a later change has been applied already.
  @usableFromInline
  package func reopen(generation: UInt64) -> [Resumption] {
    state.withLock { state -> [Resumption] in
      guard generation > state.generation else { return [] }
      state.generation = generation
      open.store(true, ordering: .releasing)
      defer { state.resumptions = [] }
      return state.resumptions.map(\.resume)
    }
  }

  /// `end()`, the first time only: `nil` if the demand had ended already.
  @usableFromInline
  package func endOnce() -> [Resumption]? {
    state.withLock { state -> [Resumption]? in
      guard !state.ended else { return nil }
      state.ended = true
      open.store(true, ordering: .releasing)
      defer { state.resumptions = [] }
      return state.resumptions.map(\.resume)
    }
  }

  /// The consumer (or a stage) has ended: the demand stays open for good, and the resumptions are returned to run
  /// at once.
  @usableFromInline
  package func end() -> [Resumption] {
    state.withLock { state -> [Resumption] in
      state.ended = true
      open.store(true, ordering: .releasing)
      defer { state.resumptions = [] }
      return state.resumptions.map(\.resume)
    }
  }
}
