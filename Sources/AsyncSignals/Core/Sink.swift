import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The serial-delivery engine (guarantees 1, 2, 6 and 8).
//
// A `Sink` is one subscription at a point where events enter from code that may run on any thread: the
// subscriber handed to a `create` body, and each subscriber of a subject. It is that subscription's
// `Subscriber` (the producer sends into it), its `Disposable` (the user disposes it) and the owner of its
// children (the body's cleanup, the scheduled subscription).
//
// Delivery follows RAC 2.5: events are delivered on the sending thread while the sink's recursive delivery
// lock is held, so no two events ever overlap and a sender on another thread waits until the event in
// progress has been handled. A send from inside a callback on the same thread re-enters the lock and is
// delivered at once, nested, in the order it was sent — as RAC's `@synchronized` subscriber does — so it can
// neither deadlock nor be reordered. Terminal events, a `.stop` answer and disposal are recorded under the
// lock, and nothing is delivered after them.
//
// Disposal never waits for the delivery lock: it may be called from any thread, including from a callback
// that another thread is waiting on. It flips `disposed`, disposes the children (outside every lock), and
// releases the observer if the delivery lock is free. If a delivery is in progress on another thread, that
// thread releases the observer when it leaves the lock: every holder of the delivery lock checks `disposed`
// after unlocking and, if it is set, retries the release with `tryLock`. The disposer's `exchange` comes
// before its `tryLock`, and a holder's unlock comes before its check, so whichever of them is last to touch
// the lock sees the flag and finds the lock free.
//
// Delivery calls the observer without retaining it. The observer lives in an `ObserverBox` (a `let` in a
// class, which a call can borrow) that the sink holds through one unmanaged reference, so an event costs no
// retain/release pair. The hazard is a nested delivery: a callback that sends a terminal event into its own
// subscription, or disposes it, must not free the observer whose call is still on the stack below it. So the
// sink counts the deliveries in progress (`depth`, under the delivery lock, which only their thread can hold),
// and the observer is dropped only at depth zero: by the outermost delivery once its call has returned, or by
// `releaseObserver` when no delivery is in progress. Calls stay impossible after the end, as before: every
// delivery checks `terminated` and `disposed` first.
//
// Sinks of a subject. A subject delivers every event inside a turn of its own recursive lock (see
// Subjects/SubjectStorage.swift), which already serialises the deliveries to each of its sinks, so its sinks do
// not take their delivery lock (`deliversInOwnersTurn`): the turn lock guards `observer`, `depth` and
// `terminated` instead, and a send costs one lock round trip rather than one per subscriber. The release
// protocol above then runs on the turn lock, in the subject: a disposed sink hands itself to the subject
// (`sinkDidDispose`), which drops the observer at once if its turn lock is free (a `tryLock`, which also
// succeeds on the thread of a callback, where `depth` protects the observer still being called), and
// otherwise leaves it to the thread in its turn, which looks for such sinks after unlocking.

/// The state a sink's deliveries guard, at a stable address. Not generic: the delivery path never needs generic
/// metadata (see Core/Observer.swift).
///
/// In the sink's own allocation, after its header (see `SinkCore`): first this state, then the `disposed` flag, then,
/// unless the sink is a subject's, its `SinkLocks`. A subject's sink is guarded by the subject's turn lock and has no
/// children, so its allocation ends after the flag (56 bytes in all, the object's header included).
///
/// Fields guarded by different locks share this allocation, so they are only ever loaded and stored, never updated
/// in place (`x += 1`, a mutating method): through a pointer, Swift marks an in-place update as an access to the
/// whole struct, and ThreadSanitizer then reports two fields guarded by different locks as one variable. (The one
/// field updated in place, the children bag, is reached through a pointer to itself: `SinkCore.children`.)
@usableFromInline
struct SinkState {
  /// The sink's one reference to its observer's box, or `nil` once dropped. guarded by: the delivery lock
  var observer: Unmanaged<ObserverBox>?
  /// The sink's place in its owner's `SubscriberList`. guarded by: the owner's lock.
  var ownerIndex = -1
  /// Deliveries in progress, counting nested ones; the observer is dropped only at zero. guarded by: the delivery
  /// lock. (32 bits, so that it, `terminated` and the `disposed` flag after them share one word.)
  var depth: Int32 = 0
  var terminated = false  // guarded by: the delivery lock

  init(observer: consuming ObserverBox) {
    self.observer = .passRetained(observer)
  }
}

/// What a sink that serialises its own deliveries (a `create` body's) adds to its `SinkState`, in the same
/// allocation: its locks and its children.
@usableFromInline
struct SinkLocks {
  /// Serialises delivery. Recursive, so that a callback may send into its own subscription.
  var delivery = pthread_mutex_t()
  /// Guards `children`. Never held while calling out.
  var childrenLock = PlatformLock()
  var children = DisposableBag()  // guarded by: `childrenLock`

  /// Where `children` sits in the locks.
  @inline(__always)
  static var childrenOffset: Int {
    MemoryLayout<SinkLocks>.offset(of: \.children).unsafelyUnwrapped
  }

  /// Where the locks start in a sink's tail: after its state and its `disposed` flag, aligned. (Computed: the
  /// optimiser folds it.)
  @inline(__always)
  static var offset: Int {
    let alignment = MemoryLayout<SinkLocks>.alignment
    return (SinkCore.disposedOffset + MemoryLayout<Atomic<Bool>>.size + alignment - 1) / alignment * alignment
  }
}

/// A sink's observer, immutable in a class of its own so that delivery can call it without retaining it (a class's
/// `let`s can be borrowed).
///
/// Two kinds, told apart by `receivesBox`: an operator chain's observer, which the sink boxes itself
/// (`RawObserverBox`), and a subscriber's closures, which `subscribeNext` boxes before attaching (`SubscriberBox`) so
/// that the sink of a subject or of a `create` body holds them without a closure context of their own: one allocation
/// and 24 bytes fewer per subscription (issue 29's W8a). The flag costs no memory: the allocator hands out the 40
/// bytes a `RawObserverBox` takes with it (and it gave the same for the 32 without), and the 56 of a
/// `NextSubscriberBox`.
@usableFromInline
class ObserverBox: @unchecked Sendable {
  // guarded by: immutability (a `let`; the subclasses add only `let`s of `Sendable` types).

  /// Whether this is a `SubscriberBox`, whose `receive` takes the box; otherwise it is a `RawObserverBox`.
  @usableFromInline let receivesBox: Bool

  @inlinable
  init(receivesBox: Bool) {
    self.receivesBox = receivesBox
  }

  /// Delivers an event to the boxed observer. Call it borrowed: `_withUnsafeGuaranteedRef`.
  @inline(__always)
  final func receive(_ kind: EventKind, _ payload: UnsafeRawPointer?) -> Flow {
    if receivesBox {
      let box = unsafeDowncast(self, to: SubscriberBox.self)
      return box.receive(box, kind, payload)
    }
    return unsafeDowncast(self, to: RawObserverBox.self).raw(kind, payload)
  }
}

/// An operator chain's observer, boxed by the sink (or `zip(with:)`) that delivers to it.
@usableFromInline
final class RawObserverBox: ObserverBox, @unchecked Sendable {
  // guarded by: immutability (`raw` is a `let` of a `Sendable` closure).
  @usableFromInline let raw: RawObserver

  @usableFromInline
  init(_ raw: @escaping RawObserver) {
    self.raw = raw
    super.init(receivesBox: false)
  }
}

/// A subscriber's closures, boxed where they are passed in (`subscribeNext`), for a signal whose subscriptions
/// deliver from a sink of their own (`Signal.attachesSubscriberBoxes`): the sink keeps this box as its observer.
///
/// Not generic: the sink calls `receive`, a closure without captures that the generic subclass makes where `Value`
/// and `Failure` are concrete (in the module that subscribes), and that finds the closures in the box it is given.
/// An overridden method would do the same, but unspecialised, with value-witness copies: 35% more per event.
@usableFromInline
class SubscriberBox: ObserverBox, @unchecked Sendable {
  // guarded by: immutability (`receive` is a `let` of a `Sendable` closure; the subclasses add only such `let`s).
  @usableFromInline let receive: @Sendable (SubscriberBox, EventKind, UnsafeRawPointer?) -> Flow

  @inlinable
  init(_ receive: @escaping @Sendable (SubscriberBox, EventKind, UnsafeRawPointer?) -> Flow) {
    self.receive = receive
    super.init(receivesBox: true)
  }
}

/// `subscribeNext(_:)`'s closure in a box: values only, and completion ends the subscription silently.
@usableFromInline
final class NextSubscriberBox<Value>: SubscriberBox, @unchecked Sendable {
  // guarded by: immutability (`next` is a `let` of a `Sendable` closure).
  @usableFromInline let next: @Sendable (Value) -> Void

  @inlinable
  init(_ next: @escaping @Sendable (Value) -> Void) {
    self.next = next
    super.init { box, kind, payload in
      guard kind == .next else { return .stop }  // completion: the subscription ends
      unsafeDowncast(box, to: NextSubscriberBox.self).next(
        payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee)
      return .proceed
    }
  }
}

/// `subscribeNext(_:error:completed:)`'s closures in a box.
@usableFromInline
final class EventSubscriberBox<Value, Failure: Error>: SubscriberBox, @unchecked Sendable {
  // guarded by: immutability (`let`s of `Sendable` closures).
  @usableFromInline let next: @Sendable (Value) -> Void
  @usableFromInline let error: @Sendable (Failure) -> Void
  @usableFromInline let completed: @Sendable () -> Void

  @inlinable
  init(
    next: @escaping @Sendable (Value) -> Void, error: @escaping @Sendable (Failure) -> Void,
    completed: @escaping @Sendable () -> Void
  ) {
    self.next = next
    self.error = error
    self.completed = completed
    super.init { box, kind, payload in
      let box = unsafeDowncast(box, to: EventSubscriberBox.self)
      return kind.send(payload, next: box.next, error: box.error, completed: box.completed)
    }
  }
}

/// An object that keeps sinks (a subject's storage) and must forget one when it is disposed.
///
/// A class rather than a protocol: a sink's weak reference to it is then one word, not an existential's two, which
/// keeps a subject's sink (header, state and flag) in a 56-byte allocation instead of a 64-byte one (issue 13's W8a).
@usableFromInline
class SinkOwner: @unchecked Sendable {
  // guarded by: no stored properties.

  @usableFromInline
  init() {}

  /// Called once, after the sink has been disposed (by its user, or after its terminal event).
  @usableFromInline
  func sinkDidDispose(_ sink: SinkCore) {
    preconditionFailure("SinkOwner.sinkDidDispose(_:) must be overridden by \(type(of: self))")
  }
}

/// What a sink's allocation starts with: set when it is made, never changed.
@usableFromInline
struct SinkHeader {
  /// Told when the sink is disposed, so that it stops keeping it.
  weak var owner: SinkOwner?
  /// Whether the owner delivers to this sink under a lock of its own (a subject's turn) rather than through
  /// this sink's delivery lock; see "Sinks of a subject" at the top of this file.
  let deliversInOwnersTurn: Bool
}

/// The untyped part of a sink: all of its state and its whole delivery algorithm.
///
/// One allocation holds the sink and everything its deliveries guard. `Sink.make` allocates it with
/// `ManagedBufferPointer`: the immutable `SinkHeader` first, then a tail with the `SinkState`, the `disposed` flag
/// and, for a sink that is not a subject's, the `SinkLocks` (see `SinkState`). So neither this class nor `Sink` has
/// stored properties, and neither has an initialiser: `ManagedBufferPointer` requires both. (A `ManagedBuffer`
/// subclass would say the same more simply, but `ManagedBuffer` is not `Sendable`, and a sink must be.)
@usableFromInline
class SinkCore: Disposable, @unchecked Sendable {
  // guarded by: the locks in `locks` — `state`'s `observer`, `depth` and `terminated` by the delivery lock (the
  // owner's turn lock instead when `deliversInOwnersTurn`), `children` by the children lock — and the `disposed`
  // atomic; see the comment at the top of this file. The header is immutable. (No stored properties: everything
  // lives in the header and the tail.)

  @usableFromInline
  typealias Memory = ManagedBufferPointer<SinkHeader, UInt64>

  /// The tail's size in words for a sink of `owner` (a subject's, or `nil` for a `create` body's).
  @usableFromInline
  static func tailCapacity(ownedBy owner: SinkOwner?) -> Int {
    let bytes =
      owner != nil ? disposedOffset + MemoryLayout<Atomic<Bool>>.size : SinkLocks.offset + MemoryLayout<SinkLocks>.size
    return (bytes + MemoryLayout<UInt64>.size - 1) / MemoryLayout<UInt64>.size
  }

  /// Where the `disposed` flag sits in the tail: in the last word of the state, after `terminated`.
  @usableFromInline
  static var disposedOffset: Int {
    @inline(__always) get { MemoryLayout<SinkState>.size }
  }

  /// Initialises the tail of a sink just allocated: called once, by `Sink.make`, before the sink is shared.
  @usableFromInline
  final func setUp(_ observer: consuming ObserverBox) {
    let tail = self.tail
    tail.initializeMemory(as: SinkState.self, to: SinkState(observer: observer))
    (tail + Self.disposedOffset).initializeMemory(as: Atomic<Bool>.self, to: Atomic(false))
    if !deliversInOwnersTurn {
      let locks = (tail + SinkLocks.offset).initializeMemory(as: SinkLocks.self, to: SinkLocks())
      RecursiveLockPrimitive.setUp(&locks.pointee.delivery)
      LockPrimitive.setUp(&locks.pointee.childrenLock)
    }
  }

  deinit {
    state.pointee.observer?.release()
    if !deliversInOwnersTurn {
      RecursiveLockPrimitive.tearDown(&locks.pointee.delivery)
      LockPrimitive.tearDown(&locks.pointee.childrenLock)
      locks.deinitialize(count: 1)
    }
    disposed.deinitialize(count: 1)
    state.deinitialize(count: 1)
    Memory(unsafeBufferObject: self).withUnsafeMutablePointerToHeader { _ = $0.deinitialize(count: 1) }
  }

  /// The start of the tail. Its address is fixed for the sink's life; every use is by a method of the sink or by
  /// its owner, which keeps it, so the sink outlives each use.
  @usableFromInline
  final var tail: UnsafeMutableRawPointer {
    @inline(__always) get {
      Memory(unsafeBufferObject: self).withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
    }
  }

  @usableFromInline
  final var state: UnsafeMutablePointer<SinkState> {
    @inline(__always) get { tail.assumingMemoryBound(to: SinkState.self) }
  }

  /// Set once, by the first `dispose()`; read lock-free on every delivery.
  @usableFromInline
  final var disposed: UnsafeMutablePointer<Atomic<Bool>> {
    @inline(__always) get { (tail + Self.disposedOffset).assumingMemoryBound(to: Atomic<Bool>.self) }
  }

  /// Whether the owner delivers to this sink under its turn lock; see `SinkHeader`.
  @usableFromInline
  final var deliversInOwnersTurn: Bool {
    @inline(__always) get {
      Memory(unsafeBufferObject: self).withUnsafeMutablePointerToHeader { $0.pointee.deliversInOwnersTurn }
    }
  }

  /// The owner, if it is still there.
  private final var owner: SinkOwner? {
    Memory(unsafeBufferObject: self).withUnsafeMutablePointerToHeader { $0.pointee.owner }
  }

  /// The locks and children that follow the state; only a sink that is not a subject's has them.
  private final var locks: UnsafeMutablePointer<SinkLocks> {
    (tail + SinkLocks.offset).assumingMemoryBound(to: SinkLocks.self)
  }

  /// The children, through a pointer of their own: updated in place, an access to them is an access to the bag
  /// alone, which the children lock guards, where an update through `locks` would be an access to all of
  /// `SinkLocks` (see `SinkState`), and a copy out and back costs a retain and a release of each part.
  private final var children: UnsafeMutablePointer<DisposableBag> {
    (tail + SinkLocks.offset + SinkLocks.childrenOffset).assumingMemoryBound(to: DisposableBag.self)
  }

  // MARK: Delivery

  /// Delivers an event unless the subscription has ended; ends it after a terminal event or a `.stop`.
  @usableFromInline
  final func deliver(_ kind: EventKind, _ payload: UnsafeRawPointer?) {
    let (ended, released) = deliverLocked(kind, payload)
    // Freed here, after unlocking: whatever the observer captured may call out from its deinitialiser.
    released?.release()
    if ended {
      // The outermost delivery has dropped the observer already (`released`): no need to try for it again.
      end(releasingObserver: released == nil)
    } else if disposed.pointee.load(ordering: .sequentiallyConsistent) {
      // Disposed while the lock was held, perhaps from another thread: see the top of this file.
      releaseObserver()
    }
  }

  /// Delivers under the delivery lock. Returns whether the subscription has just ended, and the observer it
  /// dropped if so.
  private final func deliverLocked(_ kind: EventKind, _ payload: UnsafeRawPointer?) -> (
    ended: Bool, released: Unmanaged<ObserverBox>?
  ) {
    RecursiveLockPrimitive.lock(&locks.pointee.delivery)
    defer { RecursiveLockPrimitive.unlock(&locks.pointee.delivery) }
    return deliverSerialised(kind, payload)
  }

  /// Delivers an event for an owner that holds the lock serialising this sink's deliveries (a subject's turn
  /// lock); ends the subscription after a terminal event or a `.stop`. The owner's lock stands in for the
  /// delivery lock, so a disposal from another thread leaves the observer to the owner (`sinkDidDispose`).
  @usableFromInline
  final func deliverInOwnersTurn(_ kind: EventKind, _ payload: UnsafeRawPointer?) {
    let (ended, released) = deliverSerialised(kind, payload)
    released?.release()
    if ended { dispose() }
  }

  /// Drops the observer unless a delivery to it is in progress on this thread, in which case the outermost one
  /// drops it. Called by the owner under the lock serialising this sink's deliveries; returns the observer to
  /// release once that lock is released.
  @usableFromInline
  final func takeObserverInOwnersTurn() -> Unmanaged<ObserverBox>? {
    guard state.pointee.depth == 0 else { return nil }
    defer { state.pointee.observer = nil }
    return state.pointee.observer
  }

  /// The delivery algorithm, under whichever lock serialises this sink (its own, or its owner's turn).
  @inline(__always)
  private final func deliverSerialised(_ kind: EventKind, _ payload: UnsafeRawPointer?) -> (
    ended: Bool, released: Unmanaged<ObserverBox>?
  ) {
    guard !state.pointee.terminated, !disposed.pointee.load(ordering: .acquiring),
      let observer = state.pointee.observer
    else { return (false, nil) }
    let ended: Bool
    state.pointee.depth = state.pointee.depth + 1
    if kind != .next {
      // Recorded before the callback, so that anything the callback sends back is dropped.
      state.pointee.terminated = true
      _ = observer._withUnsafeGuaranteedRef { $0.receive(kind, payload) }
      ended = true
    } else {
      // A re-entrant terminal event may have ended the subscription during the callback.
      ended = observer._withUnsafeGuaranteedRef { $0.receive(kind, payload) } == .stop && !state.pointee.terminated
      if ended { state.pointee.terminated = true }
    }
    state.pointee.depth = state.pointee.depth - 1
    // Only the outermost delivery drops the observer: a nested one returns into a call of it.
    guard state.pointee.depth == 0,
      state.pointee.terminated || disposed.pointee.load(ordering: .acquiring)
    else { return (ended, nil) }
    state.pointee.observer = nil
    return (ended, observer)
  }

  /// Drops the observer if no delivery is in progress; otherwise the delivery drops it when it leaves: the one
  /// on another thread (which holds the lock), or the outermost one on this thread (`depth` is not zero).
  private final func releaseObserver() {
    guard RecursiveLockPrimitive.tryLock(&locks.pointee.delivery) else { return }
    var released: Unmanaged<ObserverBox>?
    if state.pointee.depth == 0 {
      released = state.pointee.observer
      state.pointee.observer = nil
    }
    RecursiveLockPrimitive.unlock(&locks.pointee.delivery)
    // Freed here, after unlocking: whatever the observer captured may call out from its deinitialiser.
    released?.release()
  }

  // MARK: Disposable

  @usableFromInline
  final var isDisposed: Bool {
    disposed.pointee.load(ordering: .acquiring)
  }

  @usableFromInline
  final func dispose() {
    end(releasingObserver: true)
  }

  /// Disposes the sink; `releasingObserver: false` when the caller has dropped the observer itself.
  private final func end(releasingObserver: Bool) {
    guard !disposed.pointee.exchange(true, ordering: .sequentiallyConsistent) else { return }
    guard deliversInOwnersTurn else {
      LockPrimitive.lock(&locks.pointee.childrenLock)
      let children = self.children.pointee.takeAll()
      LockPrimitive.unlock(&locks.pointee.childrenLock)
      children.disposeAll()
      if releasingObserver { releaseObserver() }  // no owner to tell: only a subject's sink has one
      return
    }
    if let owner {
      // The owner releases the observer under its turn lock, now or when the turn in progress ends.
      owner.sinkDidDispose(self)
    } else {
      // The owner is gone, and with it every delivery: only a call on the owner can deliver.
      state.pointee.observer?.release()
      state.pointee.observer = nil
    }
  }

  /// Forgets a child without disposing it (it has been disposed elsewhere).
  final func removeChild(_ id: ObjectIdentifier) {
    LockPrimitive.lock(&locks.pointee.childrenLock)
    children.pointee.remove(id)
    LockPrimitive.unlock(&locks.pointee.childrenLock)
  }

  /// The number of children kept (for tests).
  final var childCount: Int {
    guard !deliversInOwnersTurn else { return 0 }
    LockPrimitive.lock(&locks.pointee.childrenLock)
    defer { LockPrimitive.unlock(&locks.pointee.childrenLock) }
    return children.pointee.count
  }

  /// Adds a child disposable, or disposes it at once if the subscription has ended. Not for a subject's sink,
  /// which has no children (nothing hands it out as a subscriber).
  @usableFromInline
  final func addChild(_ disposable: any Disposable) {
    precondition(!deliversInOwnersTurn, "SinkCore.addChild: a subject's sink keeps no children")
    LockPrimitive.lock(&locks.pointee.childrenLock)
    let inserted = children.pointee.insert(disposable)
    LockPrimitive.unlock(&locks.pointee.childrenLock)
    if !inserted { disposable.dispose() }
  }
}

/// A sink as the typed `Subscriber` that a `create` body, or a subject, sends into.
@usableFromInline
final class Sink<Value: Sendable, Failure: Error>: SinkCore, Subscriber, @unchecked Sendable {
  // guarded by: `SinkCore` (this subclass adds no stored properties).

  /// Creates the sink of one subscription that delivers to `observer`; `owner`: the subject whose sink this is,
  /// which delivers to it in its own turn, or `nil` for a `create` body's.
  @usableFromInline
  static func make(_ observer: Observer<Value, Failure>, owner: SinkOwner? = nil) -> Sink {
    make(boxed: RawObserverBox(observer.raw), owner: owner)
  }

  /// Creates the sink of one subscription that delivers to the closures in `box` (see `SubscriberBox`).
  @usableFromInline
  static func make(boxed box: consuming ObserverBox, owner: SinkOwner? = nil) -> Sink {
    // One expression, so that the buffer pointer's reference ends here rather than after `setUp`'s calls: its
    // copy as `sink` and its release then cancel out.
    let sink = unsafeDowncast(
      Memory(bufferClass: Sink.self, minimumCapacity: tailCapacity(ownedBy: owner)) { _, _ in
        SinkHeader(owner: owner, deliversInOwnersTurn: owner != nil)
      }.buffer, to: Sink.self)
    sink.setUp(box)
    return sink
  }

  // Reached through `any Subscriber`'s witness table, so this is the unspecialised generic code, where the
  // optimiser leaves `withUnsafePointer(to:)` as a call to a generic stdlib function taking a closure (about 3 ns
  // per event, with its context and thunks). An inout-to-pointer argument gives a copy's address with no closure.

  @usableFromInline
  func sendNext(_ value: Value) {
    var value = value
    deliver(.next, &value)
  }

  @usableFromInline
  func sendError(_ error: Failure) {
    var error = error
    deliver(.error, &error)
  }

  /// `deliver(_:_:)` with a typed payload, so that callers can pass `&value`; the pointer is valid for the call.
  @inline(__always)
  final func deliver<Payload>(_ kind: EventKind, _ payload: UnsafeMutablePointer<Payload>) {
    deliver(kind, UnsafeRawPointer(payload))
  }

  @usableFromInline
  func sendCompleted() {
    deliver(.completed, nil)
  }

  /// Sends a typed event; specialised where it is inlined.
  @inlinable
  func send(_ event: Event<Value, Failure>) {
    switch event {
    case .next(let value): sendNext(value)
    case .error(let error): sendError(error)
    case .completed: sendCompleted()
    }
  }

  /// A subscription made with this sink as its subscriber becomes one of its children, so that disposing
  /// this subscription disposes that one too, as RAC's passthrough subscriber arranges; once that subscription
  /// is disposed (it ended, or its user disposed it) the sink forgets it, as RAC's subscriber does, so that a
  /// long-lived subscriber of many short subscriptions does not grow.
  @usableFromInline
  func didSubscribe(with disposable: any Disposable) {
    addChild(disposable)
    whenDisposed(disposable) { [weak self] id in self?.removeChild(id) }
  }

  /// Runs a subscribe body with this sink as its subscriber, unless the subscription has already ended, and
  /// keeps the cleanup it returns.
  @inlinable
  func run(_ body: (any Subscriber<Value, Failure>) -> (any Disposable)?) {
    guard !isDisposed else { return }
    if let cleanup = body(self) { addChild(cleanup) }
  }

  /// Runs a subscribe body later, on the background scheduler (no scheduler is current: guarantee 5); disposing
  /// the sink cancels it.
  @usableFromInline
  func runOnBackgroundScheduler(_ body: @escaping @Sendable (any Subscriber<Value, Failure>) -> (any Disposable)?) {
    if let scheduled = QueueScheduler.background.schedule({ self.run(body) }) { addChild(scheduled) }
  }
}
