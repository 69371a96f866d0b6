import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The engine shared by every subject: `Subject`, `ReplaySubject`, `BehaviorSubject` and `GroupedSignal`.
//
// Two locks, never held the other way round:
//
// - The STATE lock (`state`, a `LockedState`) guards the decisions: the replay buffer, the terminal event, the
//   list of subscribers and the subscriptions the subject made as a subscriber. It is held only to decide, never
//   while calling out (STYLE.md).
// - The DELIVERY lock (the recursive mutex in `turn`) is the one lock held while subscriber callbacks run, and the
//   only one a send takes on a plain subject. It serialises the deliveries to every sink, so the sinks take no
//   lock of their own (see "Sinks of a subject" in Core/Sink.swift). It is what makes live order equal replay
//   order: recording a value in the buffer and delivering it to the current
//   subscribers happen in one turn of the delivery lock, and so does a subscriber's replay, so no value can be
//   recorded between a subscriber's replay and its first live value, and every subscriber receives the values
//   in the order they were recorded. A sender on another thread waits while a turn is in progress, as RAC's
//   subscribers make it (guarantee 1).
//
// Re-entrancy (guarantee 6). The delivery lock is recursive, so a callback may send, subscribe or dispose:
//
// - A send from inside a turn does not deliver nested (which would hand the new value to the subscribers that
//   have not yet received the value in progress — the reordering RAC's subjects have). It is queued in
//   `pending` and delivered, to every subscriber, when the value in progress has reached them all.
// - A subscription from inside a turn takes its replay at once, nested: the buffer then holds everything
//   processed so far, and the subscriber is in the list for every queued value, so it sees each value once.
// - Disposal never waits for the delivery lock (see `Sink`): the subscriber is removed under the state lock and
//   its sink ignores anything sent afterwards. Its observer is dropped under the delivery lock if that is free
//   (`tryLock`), and otherwise left in `orphans` for the thread in its turn, which sweeps them after unlocking
//   (`needsSweep` is set before the `tryLock`, and checked after every outermost unlock).
//
// The subscribers a send walks are the turn's `mirror`, not the state's list, so a send on a plain subject takes
// no state lock: the list journals its changes under the state lock (`SubscriberList`), `listChanged` is raised
// in the same hold of that lock, and a send that finds the flag raised lowers it and applies the journal to the
// mirror, under both locks, before it delivers. So a subscriber is in the mirror of every send that follows its
// recording: every send made after `subscriberCount` has counted it, or after its `subscribe` has returned (raised
// after the lock instead, the flag let a sender that had seen the count walk the old list: issue 26). The mirror
// is changed only there, at the start of an event, never while a delivery walks it: an event sent from a callback
// is queued, not delivered nested.
//
// A subject without a buffer (`capacity == 0`) does not take the delivery lock to attach a subscriber: there
// is nothing to replay except a terminal event, which is a subscriber's only event.
//
// Flow control (issue 28): a subscriber under a bounded consumer (`values(bufferingPolicy: .bounded(n))`) brings the
// consumer's `Demand` with its observer. The state keeps those demands in a side list, `bounded`, recorded in the hold
// that records the sink and removed in the one that removes it, so a subscriber without one costs nothing more (B14).
// `sendNext` never looks at them; `send(_:) async` waits while one of them has no room (SubjectStorage+Send.swift).

/// A subject's turn: the recursive delivery lock and what only its holder touches, at one stable address.
///
/// Kept behind a pointer rather than in class properties: the subject's delivery code is `@inlinable`, and in
/// the caller's module Swift cannot prove accesses to a class's `var`s exclusive, so it would check each one at
/// run time (a third of a send's cost, measured).
@usableFromInline
struct SubjectTurn<Value, Failure: Error> {
  /// Held for a whole turn of delivery or replay. Recursive.
  @usableFromInline var lock = pthread_mutex_t()
  /// Whether a turn is in progress (on the thread holding `lock`, since only it can read this).
  @usableFromInline var isDelivering = false
  /// Events sent from inside a turn, delivered when the event in progress has reached every subscriber.
  @usableFromInline var pending = Ring<Event<Value, Failure>>()
  /// The subscribers that delivery walks: the state's list as of the latest event (see the top of this file).
  @usableFromInline var mirror = SinkMirror()
  /// Upstream subscriptions to dispose once the turn is over and `lock` is released.
  @usableFromInline var teardown: DisposableBag.Children?

  @usableFromInline
  init() {}
}

/// Owns a subject's locks and performs every effect. See the comment at the top of this file.
///
/// `@inlinable` throughout, so that a subject used with concrete types (`subject.sendNext(1)`) runs specialised
/// code in the caller's module.
@usableFromInline
final class SubjectStorage<Value: Sendable, Failure: Error>: SinkOwner, @unchecked Sendable {
  // guarded by: `state` (its own lock) for the decisions; the recursive lock inside `turn` for the rest of `turn`;
  // `listChanged` and `needsSweep` are atomics. All stored properties are `let`s.
  @usableFromInline let state: LockedState<SubjectState<Value, Failure>>
  /// Whether the state's list may have changed since the mirror last caught up: raised by the list with each change,
  /// under `state`'s lock; lowered under it by the catch-up; read by a send without it. It lives after `turn`, in
  /// the same allocation, so that the list can hold its address (`SubscriberList.changed`).
  @usableFromInline let listChanged: UnsafeMutablePointer<Atomic<Bool>>
  /// Whether `orphans` may hold sinks whose observers are still to be dropped.
  @usableFromInline let needsSweep = Atomic<Bool>(false)
  /// How many bounded subscribers the state's side list holds, whether it ever held one, and whether the subject has
  /// terminated (`BoundedCount`): written under `state`'s lock with each change of the list and at the terminal event,
  /// read without it by `send(_:) async`, whose fast path and result it is. After `listChanged`, in the same
  /// allocation, so that the state can hold its address.
  @usableFromInline let boundedCount: UnsafeMutablePointer<Atomic<Int>>
  /// The delivery lock and its bookkeeping; see `SubjectTurn`.
  @usableFromInline let turn: UnsafeMutablePointer<SubjectTurn<Value, Failure>>
  /// The number of values kept for replay (0: none).
  @usableFromInline let capacity: Int

  /// Creates the storage of a subject that keeps `capacity` values (0: none) and, if `values` is not empty,
  /// starts with them (a behaviour subject's current value).
  @usableFromInline
  init(capacity: Int, values: [Value] = []) {
    // One allocation: the turn, the flag, then the count.
    let flagOffset = MemoryLayout<SubjectTurn<Value, Failure>>.stride
    let countAlignment = MemoryLayout<Atomic<Int>>.alignment
    let countOffset = (flagOffset + MemoryLayout<Atomic<Bool>>.stride + countAlignment - 1) / countAlignment
      * countAlignment
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: countOffset + MemoryLayout<Atomic<Int>>.stride,
      alignment: Swift.max(MemoryLayout<SubjectTurn<Value, Failure>>.alignment, countAlignment))
    turn = memory.initializeMemory(as: SubjectTurn<Value, Failure>.self, to: SubjectTurn())
    listChanged = (memory + flagOffset).bindMemory(to: Atomic<Bool>.self, capacity: 1)
    listChanged.initialize(to: Atomic(false))
    boundedCount = (memory + countOffset).bindMemory(to: Atomic<Int>.self, capacity: 1)
    boundedCount.initialize(to: Atomic(0))
    RecursiveLockPrimitive.setUp(&turn.pointee.lock)
    var initial = SubjectState<Value, Failure>(
      capacity: capacity, changed: ListChangedFlag(listChanged), boundedCount: BoundedCount(boundedCount))
    for value in values { _ = initial.receivedValue(value) }
    state = LockedState(initial)
    self.capacity = capacity
  }

  deinit {
    turn.pointee.mirror.deallocate()
    RecursiveLockPrimitive.tearDown(&turn.pointee.lock)
    listChanged.deinitialize(count: 1)
    boundedCount.deinitialize(count: 1)
    turn.deinitialize(count: 1)
    UnsafeMutableRawPointer(turn).deallocate()
  }

  @usableFromInline
  var subscriberCount: Int {
    state.withLock { $0.subscribers.count }
  }

  /// The most recent value kept for replay, if any.
  @usableFromInline
  var latestValue: Value? {
    state.withLock { $0.buffer.last }
  }

  // MARK: Subscribing

  /// Attaches `observer` at once, on the subscribing thread, whether a scheduler is current or not: replays, then
  /// delivers live events. Returns the subscription's disposable.
  ///
  /// RAC's replaying subjects replayed on the subscription scheduler; from a background thread a replay subject
  /// of limited capacity then trimmed away values sent between `subscribe` and the replay. Attaching at once
  /// loses none (guarantee 5).
  ///
  /// An observer under a bounded consumer brings its demand (`observer.demand`), which the state records beside the
  /// list for `send(_:) async` to wait on. The replay itself is sent at once, as `sendNext` would send it: what it
  /// puts beyond the consumer's bound is buffered and counted.
  @usableFromInline
  func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    let sink = Sink.make(observer, owner: self)
    start(sink, demand: observer.demand)
    return sink
  }

  /// `attach(_:)` for a subscriber's closures boxed by `subscribeNext`, which brings no demand.
  @usableFromInline
  func attach(boxed box: consuming SubscriberBox) -> any Disposable {
    let sink = Sink<Value, Failure>.make(boxed: box, owner: self)
    start(sink)
    return sink
  }

  @usableFromInline
  func start(_ sink: Sink<Value, Failure>, demand: Demand? = nil) {
    if capacity == 0 {
      // Nothing to replay but a terminal event, which is this subscriber's only event: no turn needed to attach.
      if let terminal = attached(sink, demand: demand).terminal { inTurn { deliver(terminal, to: sink) } }
      return
    }
    inTurn {
      let replay = attached(sink, demand: demand)
      for value in replay.values { deliver(.next(value), to: sink) }
      if let terminal = replay.terminal { deliver(terminal, to: sink) }
    }
  }

  /// Adds `sink` to the list (unless the subject has terminated) and returns its replay.
  ///
  /// The list raises `listChanged` as it records the sink, in the same hold of the state lock: whoever sees the sink
  /// counted (`subscriberCount`, under that lock) and then sends finds the flag raised, and its send catches up.
  /// Raised after the lock was released, it left a window in which a sender that had seen the count walked the
  /// old list, and the value never reached the new subscriber (issue 26). (Raised by the list, not by a closure
  /// here: a closure capturing the storage costs this unspecialised generic code four metadata lookups.)
  ///
  /// With a `demand`, the state records it beside the list in the same hold, if it records the sink.
  @inline(__always)
  private func attached(_ sink: Sink<Value, Failure>, demand: Demand?) -> SubjectState<Value, Failure>.Replay {
    let replay =
      if let demand {
        state.withLock { $0.attached(sink, demand: demand) }
      } else {
        state.withLock { $0.attached(sink) }
      }
    #if DEBUG
    SubjectTestHooks.afterAttach(self)
    #endif
    return replay
  }

  /// Delivers a replayed event to one sink, in a turn.
  private func deliver(_ event: Event<Value, Failure>, to sink: SinkCore) {
    switch event {
    case .next(let value): withUnsafePointer(to: value) { sink.deliverInOwnersTurn(.next, UnsafeRawPointer($0)) }
    case .error(let error): withUnsafePointer(to: error) { sink.deliverInOwnersTurn(.error, UnsafeRawPointer($0)) }
    case .completed: sink.deliverInOwnersTurn(.completed, nil)
    }
  }

  @usableFromInline
  override func sinkDidDispose(_ sink: SinkCore) {
    state.withLock { state in
      _ = state.subscribers.remove(sink)  // the list raises `listChanged`, as for an attach
      if !state.bounded.isEmpty { state.removeBounded(sink) }
    }
    if RecursiveLockPrimitive.tryLock(&turn.pointee.lock) {
      // No turn on another thread: drop the observer now (unless a callback below us on this thread is calling it).
      let observer = sink.takeObserverInOwnersTurn()
      unlockTurn()
      observer?.release()
      return
    }
    // Another thread is in a turn and may be calling the observer: leave it to that thread (see the top of this file).
    state.withLock { $0.orphans.append(sink) }
    needsSweep.store(true, ordering: .sequentiallyConsistent)
    sweep()
  }

  /// Drops the observers of the orphaned sinks, unless another thread is in a turn: that thread sweeps when it
  /// unlocks.
  @usableFromInline
  func sweep() {
    while needsSweep.load(ordering: .sequentiallyConsistent) {
      guard RecursiveLockPrimitive.tryLock(&turn.pointee.lock) else { return }
      needsSweep.store(false, ordering: .sequentiallyConsistent)
      let orphans = state.withLock { state in
        defer { state.orphans = [] }
        return state.orphans
      }
      let observers = orphans.compactMap { $0.takeObserverInOwnersTurn() }
      RecursiveLockPrimitive.unlock(&turn.pointee.lock)
      // Freed after unlocking: whatever an observer captured may call out from its deinitialiser.
      for observer in observers { observer.release() }
    }
  }

  /// Releases the turn lock from its outermost holder, then sweeps what a disposal left to it.
  @inlinable
  func unlockTurn() {
    RecursiveLockPrimitive.unlock(&turn.pointee.lock)
    if needsSweep.load(ordering: .sequentiallyConsistent) { sweep() }
  }

  // MARK: Sending

  /// Records and delivers `event`, or queues it behind the event in progress when called from a callback.
  @inlinable
  func send(_ event: Event<Value, Failure>) {
    RecursiveLockPrimitive.lock(&turn.pointee.lock)
    if turn.pointee.isDelivering {
      turn.pointee.pending.append(event)
      RecursiveLockPrimitive.unlock(&turn.pointee.lock)
      return
    }
    turn.pointee.isDelivering = true
    process(event)
    finishTurn()
  }

  /// Keeps `disposable`, disposing it when the subject terminates (at once if it already has).
  @usableFromInline
  func subscribed(with disposable: any Disposable) {
    if !state.withLock({ $0.subscribed(with: disposable) }) {
      disposable.dispose()
      return
    }
    // Forgotten once disposed, as RAC's subscriber forgets it: a subject fed by many short subscriptions stays small.
    whenDisposed(disposable) { [weak self] id in self?.state.withLock { $0.upstream.remove(id) } }
  }

  // MARK: Turns

  /// Runs `body` as a turn of delivery, then the events it queued. Nested turns (a callback subscribing) run
  /// their body at once and leave the queue to the outer turn.
  @usableFromInline
  func inTurn(_ body: () -> Void) {
    RecursiveLockPrimitive.lock(&turn.pointee.lock)
    if turn.pointee.isDelivering {
      body()
      RecursiveLockPrimitive.unlock(&turn.pointee.lock)
      return
    }
    turn.pointee.isDelivering = true
    body()
    finishTurn()
  }

  /// Delivers the events queued during the turn, ends it and releases the turn lock.
  @inlinable
  func finishTurn() {
    while let event = turn.pointee.pending.popFirst() { process(event) }
    turn.pointee.isDelivering = false
    let upstream = turn.pointee.teardown
    turn.pointee.teardown = nil
    unlockTurn()
    upstream?.disposeAll()
  }

  /// Delivers one event to the current subscribers. Called with `delivery` held, `state` released.
  @inlinable
  func process(_ event: Event<Value, Failure>) {
    switch event {
    case .next(let value):
      // A plain subject takes the state lock only when its list has changed; a replaying one, to record.
      if capacity > 0 || listChanged.pointee.load(ordering: .acquiring) {
        guard state.withLock({ state in catchUp(&state) && state.receivedValue(value) }) else { return }
      }
      withUnsafePointer(to: value) { payload in
        turn.pointee.mirror.forEachSink { $0.deliverInOwnersTurn(.next, UnsafeRawPointer(payload)) }
      }
    case .error(let error):
      guard let (sinks, upstream, senders) = state.withLock({ $0.receivedTerminal(event) }) else { return }
      turn.pointee.teardown = upstream
      withUnsafePointer(to: error) { payload in
        for case let sink? in sinks { sink.deliverInOwnersTurn(.error, UnsafeRawPointer(payload)) }
      }
      turn.pointee.mirror.removeAll()
      if !senders.isEmpty { senders.resume() }  // their sends return, and are ignored
    case .completed:
      guard let (sinks, upstream, senders) = state.withLock({ $0.receivedTerminal(event) }) else { return }
      turn.pointee.teardown = upstream
      for case let sink? in sinks { sink.deliverInOwnersTurn(.completed, nil) }
      turn.pointee.mirror.removeAll()
      if !senders.isEmpty { senders.resume() }
    }
  }

  /// Brings the mirror up to date if the list has changed. Under both locks; always `true` (for `&&`).
  @inlinable
  func catchUp(_ state: inout SubjectState<Value, Failure>) -> Bool {
    if listChanged.pointee.load(ordering: .relaxed) {
      listChanged.pointee.store(false, ordering: .relaxed)
      state.subscribers.update(&turn.pointee.mirror)
    }
    return true
  }
}

extension Ring {
  /// The elements in order, oldest first.
  @inlinable
  var elements: ContiguousArray<Element> {
    var elements = ContiguousArray<Element>()
    elements.reserveCapacity(count)
    for offset in 0..<count {
      var index = head + offset
      if index >= slots.count { index -= slots.count }
      if let element = slots[index] { elements.append(element) }
    }
    return elements
  }

  /// The newest element.
  @inlinable
  var last: Element? {
    guard count > 0 else { return nil }
    var index = head + count - 1
    if index >= slots.count { index -= slots.count }
    return slots[index]
  }
}

#if DEBUG
/// Debug builds only: lets a test hold a subscribing thread at a chosen point of `SubjectStorage`'s attach path,
/// to show that no window there loses a value (`SubjectAttachTests`). One hook per process, for one subject at a
/// time; every other subject passes it by.
package enum SubjectTestHooks {
  /// The subject whose attach is held, and what holds it.
  private static let held = LockedState<(subject: ObjectIdentifier, hold: @Sendable () -> Void)?>(nil)

  /// Calls `hold` on the subscribing thread of every attach to `subject` while `body` runs, once the subject's
  /// state has recorded the subscriber.
  package static func holdingAttach<R>(
    to subject: AnyObject, in hold: @escaping @Sendable () -> Void, _ body: () throws -> R
  ) rethrows -> R {
    held.withLock { $0 = (ObjectIdentifier(subject), hold) }
    defer { held.withLock { $0 = nil } }
    return try body()
  }

  static func afterAttach(_ storage: AnyObject) {
    let id = ObjectIdentifier(storage)
    guard let hold = held.withLock({ $0?.subject == id ? $0?.hold : nil }) else { return }
    hold()
  }
}
#endif
