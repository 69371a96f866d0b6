import AsyncSignals
import Observation
import Synchronization

// The engine behind `Signal.observing(_:_:)`: what one evaluation reads, and how an observation learns that the
// object it reads has gone.
//
// Swift has no deallocation hook for an arbitrary object, and `Observations` (Swift 6.3) does not wake up when an
// object it tracks is deinitialised: its iteration would wait for a change that never comes. What Observation does
// do is release the change handler it stored in the object's registrar when the object goes away. So every
// evaluation also runs under a `withObservationTracking` of its own, whose handler is owned by a `TrackingWatch`:
// the watch is released either after the handler has run (a change: nothing to report) or, without it having run,
// when every registrar that held it has gone (the objects the evaluation read have been deinitialised). The
// second case is reported to the observation, which then reads the object again on the main actor, finds it gone
// and completes. A `withObservationTracking` nested in another's reports its accesses to the outer one too, so
// the outer tracking (that of `Observations`, or of `ObservationTrackingLoop`) sees everything the value read.
//
// A value may read nothing tracked of the object itself, only of another object that outlives it
// (`\.account.name`, where `account` is a `let`): then no registrar of the object holds the watch, and the other
// object's keeps it until that object changes. So the object's own registrar is watched too (`DeinitWatch`): one
// tracking per object, of a key path nobody changes (`\Root.self`), which the registrar releases only as the object
// goes away. The registrar is found among the object's stored properties (where the `@Observable` macro keeps it);
// an object that keeps none there (a hand-written `Observable`) is seen to go only through what the value reads.

/// An expression over an object, read on the main actor; the object is held weakly.
@MainActor
final class ObservedExpression<Value: Sendable> {
  /// The value, or `nil` once the object has gone.
  private let evaluate: () -> Value?
  /// The watch of the object's own registrar, if it has one and is still there.
  private let deinitWatch: () -> DeinitWatch?

  init<Root: AnyObject & Observable>(_ object: Root, _ value: @escaping @MainActor (Root) -> Value) {
    evaluate = { [weak object] in object.map(value) }
    let observable: any AnyObject & Observable = object  // opened again in the closure: no metatype to capture
    deinitWatch = { [weak observable] in observable.flatMap { DeinitWatch.of($0) } }
  }

  /// What one evaluation found.
  enum Reading {
    /// The value, and whether reading it read anything Observation tracks. A value that tracked nothing can never
    /// change as far as Observation knows: no `willSet` will ever ask for it again.
    case value(Value, tracked: Bool)
    /// The object has gone.
    case gone
  }

  /// Reads the value, calling `onChange` when something it read is about to change (Observation's `willSet`, on the
  /// mutating thread) or `onGone` when the object has been deinitialised, or every object it read has (on the thread
  /// that released the last one). At most one of the two is called, once; neither, if the value tracked nothing.
  func read(onChange: @escaping @Sendable () -> Void, onGone: @escaping @Sendable () -> Void) -> Reading {
    let watch = TrackingWatch(onChange: onChange, onGone: onGone)
    // `watch.arm()` is evaluated only if the value read something tracked (the handler is an autoclosure).
    guard let value = withObservationTracking({ evaluate() }, onChange: watch.arm()) else { return .gone }
    guard watch.isArmed else { return .value(value, tracked: false) }
    // Outside the value's tracking, whose handler would otherwise be held by the object's registrar too, and whose
    // "tracked" would be true for a value that read nothing tracked.
    if let deinitWatch = deinitWatch() { watch.reportGone(whenGone: deinitWatch) }
    return .value(value, tracked: true)
  }
}

/// Owns the change handler of one `withObservationTracking`, and reports how it was released.
final class TrackingWatch: Sendable {
  private static let armed: UInt8 = 1
  private static let done: UInt8 = 2

  // guarded by: atomicity (`armed`, then perhaps `done`, set by whichever of the change, the object's going away and
  // the release without a change comes first: that one reports)
  private let state = Atomic<UInt8>(0)
  private let onChange: @Sendable () -> Void
  private let onGone: @Sendable () -> Void
  /// The watch of the observed object's registrar this one is registered with, and the registration.
  private let deinitRegistration = LockedState<(watch: DeinitWatch, id: UInt64)?>(nil)  // guards the registration

  init(onChange: @escaping @Sendable () -> Void, onGone: @escaping @Sendable () -> Void) {
    self.onChange = onChange
    self.onGone = onGone
  }

  /// Whether `arm()` was called: the evaluation read something tracked.
  var isArmed: Bool { state.load(ordering: .relaxed) & Self.armed != 0 }

  /// The handler to give Observation: it holds the watch until Observation releases it.
  func arm() -> @Sendable () -> Void {
    state.bitwiseOr(Self.armed, ordering: .relaxed)
    return { [self] in
      guard finish() else { return }
      onChange()
    }
  }

  /// Reports the object gone, too, when `deinitWatch` sees its registrar go, unless a change comes first.
  func reportGone(whenGone deinitWatch: DeinitWatch) {
    guard let id = deinitWatch.add({ [weak self] in if let self, self.finish() { self.onGone() } }) else {
      if finish() { onGone() }  // gone already
      return
    }
    deinitRegistration.withLock { $0 = (deinitWatch, id) }
    if state.load(ordering: .acquiring) & Self.done != 0 { withdraw() }  // changed meanwhile
  }

  /// Marks the watch done; `true` for the first caller, which reports.
  private func finish() -> Bool {
    let before = state.bitwiseOr(Self.done, ordering: .acquiringAndReleasing).oldValue
    guard before & Self.done == 0 else { return false }
    withdraw()
    return true
  }

  private func withdraw() {
    let registration = deinitRegistration.withLock { registration in
      defer { registration = nil }
      return registration
    }
    if let (watch, id) = registration { watch.remove(id) }
  }

  deinit {
    // Armed and released without having run: every registrar that held the handler has gone. (Not armed: the
    // value read nothing tracked, and the watch ends with the evaluation.)
    if state.load(ordering: .acquiring) == Self.armed {
      withdraw()
      onGone()
    }
  }
}

/// Sees an `@Observable` object go away through its own registrar: one tracking of a key path nobody changes
/// (`\Root.self`), whose handler the registrar releases only as the object is deinitialised. One per object, shared
/// by every observation of it, so that the registrar holds one handler however many observations come and go.
final class DeinitWatch: Sendable {
  private struct State: Sendable {
    var next: UInt64 = 0
    var observers: [UInt64: @Sendable () -> Void] = [:]
    var gone = false
  }

  /// The live watches, by object: weak, since each object's registrar owns its watch.
  private static let watches = LockedState<[ObjectIdentifier: WeakDeinitWatch]>([:])  // guards the table
  private let state = LockedState(State())  // guards the observers and `gone`

  private init() {}

  /// The watch of `object`'s registrar, made and installed on first use; `nil` if `object` keeps no
  /// `ObservationRegistrar` among its stored properties.
  static func of<Root: AnyObject & Observable>(_ object: Root) -> DeinitWatch? {
    let key = ObjectIdentifier(object)
    if let watch = watches.withLock({ $0[key]?.watch }) { return watch }
    guard let registrar = registrar(of: object) else { return nil }
    let watch = DeinitWatch()
    let inserted = watches.withLock { watches -> DeinitWatch in
      if let existing = watches[key]?.watch { return existing }
      watches[key] = WeakDeinitWatch(watch)
      return watch
    }
    guard inserted === watch else { return inserted }
    // The registrar holds this handler, and so the watch, until the object goes away: nobody changes `\Root.self`.
    let handler = TrackingWatch(onChange: {}, onGone: { watch.objectWentAway(key) })
    withObservationTracking({ registrar.access(object, keyPath: \Root.self) }, onChange: handler.arm())
    return watch
  }

  /// The registrar the `@Observable` macro stores in `object`, found by its type.
  private static func registrar(of object: AnyObject) -> ObservationRegistrar? {
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for child in current.children {
        if let registrar = child.value as? ObservationRegistrar { return registrar }
      }
      mirror = current.superclassMirror
    }
    return nil
  }

  /// Calls `observer` once the object has gone; returns the registration, or `nil` (without calling it) if it has.
  func add(_ observer: @escaping @Sendable () -> Void) -> UInt64? {
    state.withLock { state -> UInt64? in
      guard !state.gone else { return nil }
      defer { state.next += 1 }
      state.observers[state.next] = observer
      return state.next
    }
  }

  func remove(_ id: UInt64) {
    _ = state.withLock { $0.observers.removeValue(forKey: id) }
  }

  /// The registrar released the handler: the object is being deinitialised (on the thread that released it).
  private func objectWentAway(_ key: ObjectIdentifier) {
    Self.watches.withLock { watches in
      if watches[key]?.watch === self || watches[key]?.watch == nil { watches[key] = nil }
    }
    let observers = state.withLock { state -> [@Sendable () -> Void] in
      state.gone = true
      defer { state.observers = [:] }
      return Array(state.observers.values)
    }
    for observer in observers { observer() }
  }
}

/// A table entry that does not keep its watch alive.
private struct WeakDeinitWatch: Sendable {
  weak let watch: DeinitWatch?

  init(_ watch: DeinitWatch) {
    self.watch = watch
  }
}

/// A tracked property that an observation reads on every evaluation, so that pulling it makes `Observations`
/// evaluate again: how a `TrackingWatch` that reports the object gone wakes an iteration that waits for a change.
@MainActor
@Observable
final class ObservationTrigger {
  private var pulls = 0

  /// Reads the tracked property (call it inside the observed evaluation).
  func track() {
    _ = pulls
  }

  /// Changes the tracked property in a main-actor job of its own, from any thread.
  nonisolated func pull() {
    MainActorJobs.enqueueOnMainActor { self.pulls &+= 1 }
  }
}
