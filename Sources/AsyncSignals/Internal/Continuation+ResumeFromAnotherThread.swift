extension UnsafeContinuation where E == Never {
  /// Resumes the suspended task from another thread, through a `CheckedContinuation` made for the purpose: its
  /// `resume` runs inside the concurrency runtime, which ThreadSanitizer does not instrument.
  ///
  /// `UnsafeContinuation.resume`, inlined into the resumer's code, reads the continuation's context, which the task
  /// reuses for its next continuation; the runtime orders the two with atomics ThreadSanitizer does not see, and a
  /// task resumed before it had finished suspending never acquires them (swiftlang/swift#57803), so a program whose
  /// loop is resumed from another thread got a false report in some runs. Resumed from inside the runtime, the
  /// resumer's accesses are not instrumented, and there is nothing to report. The continuation itself stays an
  /// `UnsafeContinuation` where it is kept: a state that holds one per waiting consumer and decides per value copies
  /// a pointer, not a reference to retain (a `CheckedContinuation` there cost the unbounded loop a third of its time).
  /// The checked one costs an object per resumption, not per value.
  @inlinable
  package func resumeFromAnotherThread(returning value: sending T) {
    CheckedContinuation(continuation: self).resume(returning: value)
  }
}
