import AsyncSignals

/// Whether one observation's next evaluation is due, counted in `MainActorJobs` while it is, so that
/// `TestScheduler.settle()` waits for it.
///
/// An evaluation becomes due when the subscription starts (the current value), in the `willSet` of a change to
/// something it read, or when the object it reads goes away; it stops being due when it runs, or when the
/// subscription ends (disposed, completed). Where the value is sent later than it is read (the `Observations`
/// engine reads it in the sequence's closure and sends it in the loop), the evaluation stays counted until `sent()`:
/// otherwise a settle could see nothing due between the read and the send, and return before the work the value
/// starts has begun. A subscription paused for room (a bounded loop that is full) is not work: while paused, a change
/// is remembered and counted again only when the pause ends.
///
/// Every transition is made under the lock, with the count changed in the same hold, so the count always equals
/// the number of observations whose evaluation is due and not paused.
final class DueEvaluation: Sendable {
  private struct State: Sendable {
    /// Due, and counted in this epoch of `MainActorJobs`.
    var due: UInt64?
    /// Read, not yet sent, and counted in this epoch.
    var unsent: UInt64?
    /// A change came while paused: due once the pause ends.
    var dueAfterPause = false
    var paused = false
    var ended = false
  }

  // guards every transition; `MainActorJobs`' lock, taken inside it, takes no other lock while it is held.
  private let state = LockedState(State())

  /// Starts due: the first evaluation, which reads the current value.
  init() {
    let epoch = MainActorJobs.begin(.evaluation)
    state.withLock { $0.due = epoch }
  }

  /// A change to what the value read is coming (`willSet`), or its object has gone: the next evaluation is due.
  func markDue() {
    state.withLock { state in
      guard !state.ended, state.due == nil else { return }
      if state.paused {
        state.dueAfterPause = true
      } else {
        state.due = MainActorJobs.begin(.evaluation)
      }
    }
  }

  /// The evaluation runs: returns the epoch it was due in, for the work its value starts to count in (`nil` if it
  /// was not counted). It stays counted until `sent()` (or a pause, or the end).
  @discardableResult
  func evaluating() -> UInt64? {
    state.withLock { state -> UInt64? in
      // A value read and never sent: superseded.
      if let epoch = state.unsent { MainActorJobs.end(epoch, .evaluation) }
      state.unsent = state.due
      state.due = nil
      return state.unsent
    }
  }

  /// The value read has been sent (what it started counts on its own): the evaluation is over.
  func sent() {
    state.withLock { state in
      guard let epoch = state.unsent else { return }
      state.unsent = nil
      MainActorJobs.end(epoch, .evaluation)
    }
  }

  /// The subscription waits for room: whatever is due waits with it, uncounted.
  func pause() {
    state.withLock { state in
      state.paused = true
      if let epoch = state.unsent {
        state.unsent = nil
        MainActorJobs.end(epoch, .evaluation)
      }
      guard let epoch = state.due else { return }
      state.due = nil
      state.dueAfterPause = true
      MainActorJobs.end(epoch, .evaluation)
    }
  }

  /// The wait for room is over: an evaluation that became due meanwhile counts again.
  func resume() {
    state.withLock { state in
      state.paused = false
      guard !state.ended, state.dueAfterPause else { return }
      state.dueAfterPause = false
      state.due = MainActorJobs.begin(.evaluation)
    }
  }

  /// Whether the subscription has ended.
  var hasEnded: Bool { state.withLock { $0.ended } }

  /// The subscription has ended: nothing is due any more. Idempotent.
  func end() {
    state.withLock { state in
      if let epoch = state.due { MainActorJobs.end(epoch, .evaluation) }
      if let epoch = state.unsent { MainActorJobs.end(epoch, .evaluation) }
      state.ended = true
      state.due = nil
      state.unsent = nil
      state.dueAfterPause = false
    }
  }
}
