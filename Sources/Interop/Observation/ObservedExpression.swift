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

/// An expression over an object, read on the main actor; the object is held weakly.
@MainActor
final class ObservedExpression<Value: Sendable> {
  /// The value, or `nil` once the object has gone.
  private let evaluate: () -> Value?

  init<Root: AnyObject>(_ object: Root, _ value: @escaping @MainActor (Root) -> Value) {
    evaluate = { [weak object] in object.map(value) }
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
  /// mutating thread) or `onGone` when every object it read has been deinitialised (on the thread that released the
  /// last one). At most one of the two is called, once; neither, if the value tracked nothing.
  func read(onChange: @escaping @Sendable () -> Void, onGone: @escaping @Sendable () -> Void) -> Reading {
    let watch = TrackingWatch(onChange: onChange, onGone: onGone)
    // `watch.arm()` is evaluated only if the value read something tracked (the handler is an autoclosure).
    guard let value = withObservationTracking({ evaluate() }, onChange: watch.arm()) else { return .gone }
    return .value(value, tracked: watch.isArmed)
  }
}

/// Owns the change handler of one `withObservationTracking`, and reports how it was released.
final class TrackingWatch: Sendable {
  private static let armed: UInt8 = 1
  private static let fired: UInt8 = 2

  private let state = Atomic<UInt8>(0)  // guarded by: atomicity (`armed`, then perhaps `fired`)
  private let onChange: @Sendable () -> Void
  private let onGone: @Sendable () -> Void

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
      state.bitwiseOr(Self.fired, ordering: .acquiringAndReleasing)
      onChange()
    }
  }

  deinit {
    // Armed and released without having run: every registrar that held the handler has gone. (Not armed: the
    // value read nothing tracked, and the watch ends with the evaluation.)
    if state.load(ordering: .acquiring) == Self.armed { onGone() }
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
