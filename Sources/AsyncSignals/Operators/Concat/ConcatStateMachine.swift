/// A signal held type-erased by the `concat` engine, which is not generic (see `ConcatStateMachine`); only
/// `ConcatLink` turns one back into its `Signal` to attach it.
@usableFromInline
typealias ErasedSignal = AnyObject & Sendable

/// What `concat(_:)` and `Signal.concat(_:)` must do for each input. Pure: no locks, no callouts.
///
/// RAC's rules: one inner signal at a time, in order, each subscribed once the previous one has completed; a
/// failure, a `.stop` from downstream or disposal ends the run, and nothing is subscribed after that. The inner
/// signals are held type-erased, so that no step asks the runtime for generic metadata (see Core/Observer.swift):
/// the engine is compiled once, in this module, for every `Value` and `Failure`.
///
/// Two ways to go on after a completion:
/// - Nested (`concat(_:)`, RAC's `-concat:`): the next signal is subscribed inside the completion, on its thread,
///   before it returns, so the dispose actions run in RAC's order (the later signal's first). `turn` numbers the
///   subscriptions, so that an `attach` that returns after its inner completed (and the next one was subscribed
///   inside it) knows that its subscription is over.
/// - Trampolined (`Signal.concat(_:)`): a completion that arrives while its own `attach` is still running only
///   records it (`completedWhileAttaching`); the thread in `attach` subscribes to the next signal once it
///   returns, in a loop, so synchronous signals run in constant stack depth (guarantee 7); after the last one, it
///   completes the result, as `MergeStorage` did for a collection.
@usableFromInline
struct ConcatStateMachine: Sendable {
  @usableFromInline
  enum Phase: Sendable {
    /// The current turn's `attach` is running.
    case attaching
    /// Trampolined: the current turn's signal completed inside its `attach`; the attaching thread goes on.
    case completedWhileAttaching
    /// The current turn's subscription is made and kept in `current`.
    case live
    /// Completed, failed, stopped or disposed: nothing more is subscribed.
    case ended
  }

  /// What the caller does once the lock is released.
  @usableFromInline
  enum Step: Sendable {
    case none
    /// Subscribe to `signal`, as turn `turn`.
    case subscribe(ErasedSignal, turn: Int)
    /// Every signal has completed: complete the result.
    case complete
  }

  /// The signals of a collection, from `nextIndex` on. guarded by: the storage's lock, as the whole machine.
  private var signals: [ErasedSignal]
  private var nextIndex = 0
  /// Signals that come before the rest of `signals`, the next one last: the later halves of the nested pairwise
  /// concatenations (see `ConcatSignal`).
  private var pending: [ErasedSignal]
  private var phase = Phase.attaching
  /// The live inner signal's subscription, once its `attach` has returned.
  private var current: (any Disposable)?
  /// The number of the latest subscription.
  private var turn = 0
  private let trampolined: Bool

  init(signals: [ErasedSignal], pending: consuming [ErasedSignal], trampolined: Bool) {
    self.signals = signals
    self.pending = pending
    self.trampolined = trampolined
  }

  /// The first signal to subscribe to, or `.complete` if there is none.
  mutating func start() -> Step {
    nextStep()
  }

  /// The current turn's signal completed. Returns what to do, and the completed signal's subscription, to dispose
  /// after doing it.
  mutating func innerCompleted() -> (Step, finished: (any Disposable)?) {
    switch phase {
    case .ended:
      return (.none, nil)
    case .attaching where trampolined:
      phase = .completedWhileAttaching  // the attaching thread goes on (or completes), once `attach` returns
      return (.none, nil)
    case .attaching, .live:
      let finished = current
      current = nil
      return (nextStep(), finished)
    case .completedWhileAttaching:
      preconditionFailure("concat: a second completion during one subscription")
    }
  }

  /// `attach` returned `subscription` for turn `turn`. Returns what to do, and a subscription that is over (this
  /// one, if its signal has completed or the run has ended), to dispose.
  mutating func attachReturned(_ subscription: any Disposable, turn: Int) -> (Step, ended: (any Disposable)?) {
    guard turn == self.turn else { return (.none, subscription) }  // nested: its signal completed, the next started
    switch phase {
    case .attaching:
      phase = .live
      current = subscription
      return (.none, nil)
    case .completedWhileAttaching:
      return (nextStep(), subscription)
    case .ended:
      return (.none, subscription)
    case .live:
      preconditionFailure("concat: a subscription returned twice")
    }
  }

  /// Failure, a downstream `.stop` or disposal: ends the run, drops the signals not yet subscribed (guarantee 8),
  /// and returns the live subscription, to dispose.
  mutating func end() -> (any Disposable)? {
    phase = .ended
    signals = []
    pending = []
    defer { current = nil }
    return current
  }

  /// Takes the next signal as a new turn, or ends the run if there is none.
  private mutating func nextStep() -> Step {
    let next: ErasedSignal
    if let signal = pending.popLast() {
      next = signal
    } else if nextIndex < signals.count {
      next = signals[nextIndex]
      nextIndex += 1
    } else {
      _ = end()
      return .complete
    }
    turn += 1
    phase = .attaching
    return .subscribe(next, turn: turn)
  }
}
