import AsyncSignals

/// Whether one observation's next evaluation is due, counted in `MainActorJobs` while it is, so that
/// `TestScheduler.settle()` waits for it (issue 27).
///
/// An evaluation becomes due when the subscription starts (the current value), in the `willSet` of a change to
/// something it read, or when the object it reads goes away; it stops being due when it runs, or when the
/// subscription ends (disposed, completed). A subscription paused for room (a bounded loop that is full) is not
/// work: while paused, a change is remembered and counted again only when the pause ends.
///
/// Every transition is decided under the lock and the count is changed after it, so the count always equals the
/// number of observations whose evaluation is due and not paused.
final class DueEvaluation: Sendable {
  private struct State: Sendable {
    /// Due, and counted.
    var due = false
    /// A change came while paused: due once the pause ends.
    var dueAfterPause = false
    var paused = false
    var ended = false
  }

  private let state = LockedState(State())  // guards every transition

  /// Starts due: the first evaluation, which reads the current value.
  init() {
    state.withLock { $0.due = true }
    MainActorJobs.begin()
  }

  /// A change to what the value read is coming (`willSet`), or its object has gone: the next evaluation is due.
  func markDue() {
    let counts = state.withLock { state -> Bool in
      guard !state.ended, !state.due else { return false }
      if state.paused {
        state.dueAfterPause = true
        return false
      }
      state.due = true
      return true
    }
    if counts { MainActorJobs.begin() }
  }

  /// The evaluation runs.
  func evaluating() {
    let released = state.withLock { state -> Bool in
      defer { state.due = false }
      return state.due
    }
    if released { MainActorJobs.end() }
  }

  /// The subscription waits for room: whatever is due waits with it, uncounted.
  func pause() {
    let released = state.withLock { state -> Bool in
      state.paused = true
      guard state.due else { return false }
      state.due = false
      state.dueAfterPause = true
      return true
    }
    if released { MainActorJobs.end() }
  }

  /// The wait for room is over: an evaluation that became due meanwhile counts again.
  func resume() {
    let counts = state.withLock { state -> Bool in
      state.paused = false
      guard !state.ended, state.dueAfterPause else { return false }
      state.dueAfterPause = false
      state.due = true
      return true
    }
    if counts { MainActorJobs.begin() }
  }

  /// Whether the subscription has ended.
  var hasEnded: Bool { state.withLock { $0.ended } }

  /// The subscription has ended: nothing is due any more. Idempotent.
  func end() {
    let released = state.withLock { state -> Bool in
      defer {
        state.ended = true
        state.due = false
        state.dueAfterPause = false
      }
      return state.due
    }
    if released { MainActorJobs.end() }
  }
}
