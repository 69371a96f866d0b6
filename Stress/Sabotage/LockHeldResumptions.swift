import AsyncSignals
import Foundation
import Synchronization

/// The broken twin of a subject's send that waits (`--sabotage SubjectSend`): the library's design, whose demands
/// run their resumptions while holding their own lock.
///
/// As in the library (Subjects/SubjectStorage+Send.swift), a sender registers its wake-up with the demand of a
/// bounded loop that has no room in the hold of the subject's state lock that finds it (the demand's lock nests in
/// the subject's), and the wake-up looks again under the subject's state lock. A demand that runs its resumptions
/// under its own lock takes the two locks the other way round: a loop making room holds its demand's lock and waits
/// for the subject's, while a sender holds the subject's and waits for the demand's; and the wake-up, which asks the
/// demand that woke it again (`resume(whenRoom:)`), waits for a lock its own thread holds. Either way the threads stop
/// for good (and with them the pool threads they run on). The library's demand returns its resumptions for the
/// caller to run once its lock is released.
enum LockHeldResumptions {
  static let description =
    "a subject's send that waits on demands that run their resumptions under their own lock: a loop making room "
    + "holds its demand's lock and waits for the subject's, which a sender registering with that demand holds"
}

/// The twin of `Demand` for one bounded loop. BUG: `reopen` and `end` run the resumptions inside the lock.
final class LockHeldDemand: Sendable {
  typealias Resumption = @Sendable () -> Void

  struct State {
    var ended = false
    var generation: UInt64 = 0
    var nextID: UInt64 = 0
    var resumptions: [(id: UInt64, resume: Resumption)] = []
  }

  private let state = LockedState(State())  // guards the resumptions, `ended` and `generation`
  private let open = Atomic<Bool>(true)  // written under `state`'s lock, read without it, as the library's
  /// The task that reads the loop, recorded as it subscribes.
  let consumerTask: Int

  init(consumerTask: Int) {
    self.consumerTask = consumerTask
  }

  var hasRoom: Bool { open.load(ordering: .acquiring) }

  /// Registers `resumption` unless there is room; `nil` if there is.
  func resume(whenRoom resumption: @escaping Resumption) -> UInt64? {
    state.withLock { state -> UInt64? in
      guard !state.ended, !open.load(ordering: .relaxed) else { return nil }
      state.nextID += 1
      state.resumptions.append((state.nextID, resumption))
      return state.nextID
    }
  }

  func withdraw(_ id: UInt64) {
    state.withLock { state in state.resumptions.removeAll { $0.id == id } }
  }

  func close(generation: UInt64) {
    state.withLock { state in
      guard !state.ended, generation > state.generation else { return }
      state.generation = generation
      open.store(false, ordering: .releasing)
    }
  }

  func reopen(generation: UInt64) {
    state.withLock { state in
      guard generation > state.generation else { return }
      state.generation = generation
      open.store(true, ordering: .releasing)
      // BUG: the resumptions run here, with the lock held.
      for resumption in state.resumptions { resumption.resume() }
      state.resumptions = []
    }
  }

  func end() {
    state.withLock { state in
      state.ended = true
      open.store(true, ordering: .releasing)
      // BUG: as in `reopen`.
      for resumption in state.resumptions { resumption.resume() }
      state.resumptions = []
    }
  }
}

/// A subject whose `send(_:) async` waits for its bounded loops as the library's does, on `LockHeldDemand`s. It
/// delivers through a library `Subject`, which the loops and the reference subscribe to.
final class TwinSendingSubject: Sendable {
  let subject = Subject<Int, StressFailure>()

  /// A suspended sender; every `var` is guarded by the twin subject's `state` lock.
  final class Sender: @unchecked Sendable {
    // guarded by: the `state` lock of the subject it waits in — every `var`; `task` is a `let`.
    let task: Int
    var continuation: CheckedContinuation<Void, Never>?
    var registration: (demand: LockHeldDemand, id: UInt64)?
    var isDone = false

    init(task: Int) { self.task = task }
  }

  struct State: @unchecked Sendable {
    // guarded by: the lock of the `LockedState` that holds it.
    var bounded: [LockHeldDemand] = []
    var waiting: [Sender] = []
    var terminated = false

    func holdsBack(_ task: Int) -> Bool {
      !terminated && bounded.contains { $0.consumerTask != task && !$0.hasRoom }
    }

    /// Registers `wake` with a demand that holds `sender` back, under this lock (the demand's nests in it); each
    /// demand answers for itself, so a wake-up asks again the demand that woke it.
    func hold(_ sender: Sender, wake: @escaping LockHeldDemand.Resumption) -> Bool {
      guard !terminated else { return false }
      for demand in bounded where demand.consumerTask != sender.task {
        guard let id = demand.resume(whenRoom: wake) else { continue }
        sender.registration = (demand, id)
        return true
      }
      return false
    }
  }

  private let state = LockedState(State())

  var subscriberCount: Int { subject.subscriberCount }

  func register(_ demand: LockHeldDemand) {
    state.withLock { state in if !state.terminated { state.bounded.append(demand) } }
  }

  func unregister(_ demand: LockHeldDemand) {
    state.withLock { state in state.bounded.removeAll { $0 === demand } }
  }

  func send(_ value: Int) async {
    let task = Demand.currentTask
    while !Task.isCancelled && state.withLock({ $0.holdsBack(task) }) {
      let sender = Sender(task: task)
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let waits = state.withLock { state -> Bool in
            guard !sender.isDone, state.hold(sender, wake: { self.look(sender) }) else {
              sender.isDone = true
              return false
            }
            sender.continuation = continuation
            state.waiting.append(sender)
            return true
          }
          if !waits { continuation.resume() }
        }
      } onCancel: {
        stop(sender)
      }
    }
    subject.sendNext(value)
  }

  private func look(_ sender: Sender) {
    let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !sender.isDone else { return nil }
      sender.registration = nil
      if state.hold(sender, wake: { self.look(sender) }) { return nil }
      sender.isDone = true
      state.waiting.removeAll { $0 === sender }
      defer { sender.continuation = nil }
      return sender.continuation
    }
    continuation?.resume()
  }

  private func stop(_ sender: Sender) {
    let (continuation, registration) = state.withLock {
      state -> (CheckedContinuation<Void, Never>?, (demand: LockHeldDemand, id: UInt64)?) in
      guard !sender.isDone else { return (nil, nil) }
      sender.isDone = true
      state.waiting.removeAll { $0 === sender }
      defer {
        sender.continuation = nil
        sender.registration = nil
      }
      return (sender.continuation, sender.registration)
    }
    if let registration { registration.demand.withdraw(registration.id) }
    continuation?.resume()
  }

  func sendCompleted() {
    typealias Freed = (CheckedContinuation<Void, Never>?, (demand: LockHeldDemand, id: UInt64)?)
    let freed = state.withLock { state -> [Freed] in
      state.terminated = true
      state.bounded = []
      defer { state.waiting = [] }
      return state.waiting.map { sender in
        sender.isDone = true
        defer {
          sender.continuation = nil
          sender.registration = nil
        }
        return (sender.continuation, sender.registration)
      }
    }
    subject.sendCompleted()
    for (continuation, registration) in freed {
      if let registration { registration.demand.withdraw(registration.id) }
      continuation?.resume()
    }
  }
}

/// A bounded loop over a `TwinSendingSubject`, in the shape of the library's `.bounded(n)` buffer: its first `next`
/// subscribes (in the loop's task, which its demand records), a waiting loop gets a value directly, values beyond
/// the limit are buffered and counted, the demand closes when the buffer is full and reopens at half, the loop ends
/// after the buffered values with the subject's completion.
final class TwinSendLoop: Subscriber, @unchecked Sendable {
  // guarded by: `lock` — every `var`; the `let`s are immutable.
  typealias Value = Int
  typealias Failure = StressFailure

  private let lock = NSLock()
  private let owner: TwinSendingSubject
  private let limit: Int
  private var demand: LockHeldDemand?
  private var buffer = Ring<Int>()
  private var waiter: CheckedContinuation<Int?, Never>?
  private var subscribed = false
  private var completed = false
  private var finished = false
  private var subscription: (any Disposable)?
  private var demandOpen = true
  private var generation: UInt64 = 0
  private var overflowed = 0
  private var mostBuffered = 0

  init(_ owner: TwinSendingSubject, limit: Int) {
    self.owner = owner
    self.limit = limit
  }

  var overflowCount: Int { lock.withLock { overflowed } }

  var highWaterMark: Int { lock.withLock { mostBuffered } }

  func next(isolation actor: isolated (any Actor)?) async -> Int? {
    if Task.isCancelled { cancel() }
    let subscribe = lock.withLock { () -> Bool in
      defer { subscribed = true }
      return !subscribed && !finished
    }
    if subscribe {
      let demand = LockHeldDemand(consumerTask: Demand.currentTask)
      lock.withLock { self.demand = demand }
      owner.register(demand)
      _ = owner.subject.subscribe(self)
    }
    if let value = take(orWait: nil) { return value }
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: actor) { (continuation: CheckedContinuation<Int?, Never>) in
          if let value = take(orWait: continuation) { continuation.resume(returning: value) }
        }
      }, onCancel: { self.cancel() }, isolation: actor)
  }

  /// The next value, `.some(nil)` at the end, or `nil` having registered `continuation` (if any).
  private func take(orWait continuation: CheckedContinuation<Int?, Never>?) -> Int?? {
    lock.lock()
    if let value = buffer.popFirst() {
      var reopening: UInt64 = 0
      if !demandOpen, buffer.count <= limit / 2 {
        demandOpen = true
        generation += 1
        reopening = generation
      }
      let demand = self.demand
      lock.unlock()
      if reopening != 0 { demand?.reopen(generation: reopening) }  // its resumptions run under its lock (the bug)
      return .some(value)
    }
    if finished || completed {
      finished = true
      lock.unlock()
      return .some(nil)
    }
    waiter = continuation
    lock.unlock()
    return nil
  }

  func cancel() {
    lock.lock()
    guard !finished else {
      lock.unlock()
      return
    }
    finished = true
    let waiter = self.waiter
    let subscription = self.subscription
    let demand = self.demand
    self.waiter = nil
    self.subscription = nil
    buffer.removeAll()
    lock.unlock()
    subscription?.dispose()
    if let demand {
      owner.unregister(demand)
      demand.end()
    }
    waiter?.resume(returning: nil)
  }

  func didSubscribe(with disposable: any Disposable) {
    let ended = lock.withLock { () -> Bool in
      guard !finished, !completed else { return true }
      subscription = disposable
      return false
    }
    if ended { disposable.dispose() }
  }

  func sendNext(_ value: Int) {
    lock.lock()
    guard !finished, !completed else {
      lock.unlock()
      return
    }
    if let waiter {
      self.waiter = nil
      lock.unlock()
      waiter.resume(returning: value)
      return
    }
    buffer.append(value)
    mostBuffered = max(mostBuffered, buffer.count)
    var closing: UInt64 = 0
    if buffer.count > limit {
      overflowed += 1
    } else if buffer.count == limit, demandOpen {
      demandOpen = false
      generation += 1
      closing = generation
    }
    let demand = self.demand
    lock.unlock()
    if closing != 0 { demand?.close(generation: closing) }
  }

  func sendError(_ error: StressFailure) { sendCompleted() }

  func sendCompleted() {
    lock.lock()
    guard !finished, !completed else {
      lock.unlock()
      return
    }
    completed = true
    let waiter = self.waiter
    let demand = self.demand
    self.waiter = nil
    subscription = nil
    if waiter != nil { finished = true }
    lock.unlock()
    waiter?.resume(returning: nil)
    if let demand {
      owner.unregister(demand)
      demand.end()
    }
  }

  /// One subscription; dropping the iterator ends it, as the library's iterator does.
  struct Iterator {
    final class Lifetime {
      let loop: TwinSendLoop

      init(loop: TwinSendLoop) { self.loop = loop }

      deinit { loop.cancel() }
    }

    let lifetime: Lifetime

    init(_ loop: TwinSendLoop) { lifetime = Lifetime(loop: loop) }

    func next(isolation actor: isolated (any Actor)?) async -> Int? {
      await lifetime.loop.next(isolation: actor)
    }
  }
}
