// The registry of `settle()`: the async work a test scheduler tracks, how the AsyncSignalsInterop bridge registers
// it (`TrackedAsyncWork`, `TrackedAsyncWait`), and the settling callers waiting for it. What `settle` does with it is
// in TestScheduler+AsyncWork.swift.

/// The tracked async work of one test scheduler, and the `settle` calls waiting for it.
struct AsyncWorkState: Sendable {
  /// One tracked task.
  struct Work: Sendable {
    /// The identity of the task running the work (the hash of its `UnsafeCurrentTask`), once it has started.
    var owner: Int?
    /// How many of the task's own awaiting calls are suspended (0 or 1 in practice).
    var waits = 0
  }

  private var nextID: UInt64 = 0
  private(set) var work: [UInt64: Work] = [:]
  /// Awaiting calls suspended, by the work they belong to.
  private var activeWaits: [UInt64: UInt64] = [:]
  /// Awaiting calls whose wait ended before their task recorded it as begun.
  private var waitsEndedEarly: Set<UInt64> = []
  private var settlers: [UInt64: CheckedContinuation<SettleWake, Never>] = [:]
  private var watchdogs: [UInt64: Task<Void, Never>] = [:]

  mutating func makeID() -> UInt64 {
    defer { nextID &+= 1 }
    return nextID
  }

  /// Every tracked task has ended or waits in an awaiting call.
  var isQuiet: Bool {
    work.values.allSatisfy { $0.waits > 0 }
  }

  var runningCount: Int {
    work.values.count { $0.waits == 0 }
  }

  var waitingCount: Int {
    work.count - runningCount
  }

  mutating func beginWork() -> UInt64 {
    let id = makeID()
    work[id] = Work()
    return id
  }

  mutating func workStarted(_ id: UInt64, owner: Int?) {
    work[id]?.owner = owner
  }

  /// Returns the settlers to resume: the work has ended.
  mutating func workEnded(_ id: UInt64) -> [Settler] {
    work[id] = nil
    return takeSettlers()
  }

  /// Whether the calling task is the one running `id` (not a child task, which inherits the task-local).
  func isOwner(_ owner: Int?, of id: UInt64) -> Bool {
    guard let owner else { return false }
    return work[id]?.owner == owner
  }

  /// Returns the settlers to resume: the work is idle now.
  mutating func waitBegan(_ waitID: UInt64, of workID: UInt64) -> [Settler] {
    if waitsEndedEarly.remove(waitID) != nil { return [] }
    guard work[workID] != nil else { return [] }
    activeWaits[waitID] = workID
    work[workID]?.waits += 1
    return takeSettlers()
  }

  mutating func waitEnded(_ waitID: UInt64) {
    guard let workID = activeWaits.removeValue(forKey: waitID) else {
      waitsEndedEarly.insert(waitID)
      return
    }
    work[workID]?.waits -= 1
  }

  typealias Settler = (continuation: CheckedContinuation<SettleWake, Never>, watchdog: Task<Void, Never>?)

  /// Registers a settling caller; returns how it must be resumed at once instead, if it must.
  mutating func register(
    _ id: UInt64, _ continuation: CheckedContinuation<SettleWake, Never>, isCancelled: Bool
  ) -> SettleWake? {
    if isCancelled { return .cancelled }
    if isQuiet { return .quiet }
    settlers[id] = continuation
    return nil
  }

  /// Attaches the safety net's task to a registered caller; `false` if the caller was resumed meanwhile.
  mutating func attach(_ watchdog: Task<Void, Never>, to id: UInt64) -> Bool {
    guard settlers[id] != nil else { return false }
    watchdogs[id] = watchdog
    return true
  }

  mutating func takeSettler(_ id: UInt64) -> Settler? {
    guard let continuation = settlers.removeValue(forKey: id) else { return nil }
    return (continuation, watchdogs.removeValue(forKey: id))
  }

  private mutating func takeSettlers() -> [Settler] {
    guard !settlers.isEmpty else { return [] }
    let taken = settlers.map { id, continuation in (continuation, watchdogs[id]) }
    settlers = [:]
    watchdogs = [:]
    return taken
  }
}

/// The identity of the current task, to tell the task running tracked work from the child tasks it starts.
private func currentTaskIdentity() -> Int? {
  withUnsafeCurrentTask { $0?.hashValue }
}

/// Async work a ``TestScheduler`` tracks: a task started by the AsyncSignalsInterop bridge (`Signal.async`, and so
/// a `Command` with async work) from one of the test scheduler's blocks, or from other tracked work.
///
/// `package`, not public: only the bridge registers work.
package final class TrackedAsyncWork: Sendable {
  /// The tracked work the current task runs (child tasks inherit it, so their async work is tracked too).
  @TaskLocal package static var current: TrackedAsyncWork?

  let scheduler: TestScheduler
  let id: UInt64

  private init(scheduler: TestScheduler, id: UInt64) {
    self.scheduler = scheduler
    self.id = id
  }

  /// Registers async work that is about to start, if a test scheduler should track it: the one whose tracked work
  /// is running, or else the one whose block is running. Call it where the work's task is created.
  package static func begin() -> TrackedAsyncWork? {
    guard let scheduler = current?.scheduler ?? (CurrentScheduler.scheduler as? TestScheduler) else { return nil }
    let id = scheduler.asyncWork.withLock { $0.beginWork() }
    return TrackedAsyncWork(scheduler: scheduler, id: id)
  }

  /// Runs `body`, the whole work of the task, as this tracked work, and unregisters it when `body` returns.
  package func run(_ body: () async -> Void) async {
    await Self.$current.withValue(self) {
      let owner = currentTaskIdentity()
      scheduler.asyncWork.withLock { $0.workStarted(id, owner: owner) }
      await body()
    }
    resumeSettlers(scheduler.asyncWork.withLock { $0.workEnded(id) }, with: .progress)
  }
}

/// One suspension of a tracked task in an awaiting call (`first()`, `last()`, `toArray()`, `waitUntilCompleted()`):
/// while it lasts, the task is idle, and ``TestScheduler/settle(timeout:isolation:)`` does not wait for it.
package final class TrackedAsyncWait: Sendable {
  private let work: TrackedAsyncWork
  private let id: UInt64

  private init(work: TrackedAsyncWork, id: UInt64) {
    self.work = work
    self.id = id
  }

  /// A wait of the current task, if it runs tracked work itself (not in a child task, which may run beside
  /// other children of the work: the work is idle only when its own task waits).
  package static func ofCurrentTask() -> TrackedAsyncWait? {
    guard let work = TrackedAsyncWork.current else { return nil }
    let owner = currentTaskIdentity()
    return work.scheduler.asyncWork.withLock { state in
      guard state.isOwner(owner, of: work.id) else { return nil }
      return TrackedAsyncWait(work: work, id: state.makeID())
    }
  }

  /// The task is suspending. If ``end()`` came first (the wait was over before the task recorded it), nothing.
  package func begin() {
    resumeSettlers(work.scheduler.asyncWork.withLock { $0.waitBegan(id, of: work.id) }, with: .progress)
  }

  /// The wait is over: call it before resuming the task, so that a `settle` never mistakes a task that is about to
  /// run for an idle one.
  package func end() {
    work.scheduler.asyncWork.withLock { $0.waitEnded(id) }
  }
}
