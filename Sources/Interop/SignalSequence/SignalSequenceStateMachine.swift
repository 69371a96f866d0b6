import AsyncSignals

/// What one iterator of a ``SignalSequence`` must do for each input: the signal's events, the consumer's
/// calls to `next`, and cancellation. Pure: no locks, no callouts. `SignalSequenceStorage` runs it under its
/// lock and performs the actions it returns with the lock released.
///
/// Phases: `idle` (no call to `next` yet, so no subscription: cold stays cold until iteration starts) →
/// `streaming` (subscribed; values are handed to a waiting consumer or buffered) → `draining` (the signal
/// terminated; buffered values are still handed out, then the terminal event) → `finished` (the consumer has
/// seen the end, or iteration was cancelled; nothing more is buffered or delivered).
///
/// A `.bounded` iterator's values pass through here only when they do not fit its ring (`BoundedRing`, which the
/// storage reads with the lock held where a decision depends on it, as `ringCount`): here are its overflow, its demand
/// and its waiting consumer.
@usableFromInline
struct SignalSequenceStateMachine<Element: Sendable, Failure: Error>: Sendable {
  /// A consumer suspended in `next`, resumed with a value, the end (`nil`) or the failure.
  @usableFromInline typealias Waiter = UnsafeContinuation<Result<Element?, Failure>, Never>
  /// A `.bounded` consumer suspended on an empty ring, resumed to look again: `true` when a value was sent to it,
  /// which it takes even if iteration was cancelled in between, as a waiting consumer of the other policies is handed
  /// its value. Its values never pass through here.
  @usableFromInline typealias BoundedWaiter = UnsafeContinuation<Bool, Never>

  @usableFromInline
  enum Phase: Sendable {
    case idle
    case streaming
    /// The signal terminated: `nil` for completion, otherwise its failure.
    case draining(Failure?)
    case finished
  }

  @usableFromInline
  enum NextAction {
    /// First call: subscribe (lock released), then ask again.
    case subscribe
    /// The result, and the generation with which to reopen the demand if taking it made room enough (`.bounded`
    /// only; see `Demand`), 0 if not.
    case returnResult(Result<Element?, Failure>, reopenDemand: UInt64)
    /// Nothing buffered: suspend and call `suspend(with:)`.
    case suspend
    /// Nothing to take, and the demand was closed: reopen it with this generation (`.bounded` only), then ask again.
    case reopenDemand(UInt64)
    /// `.bounded`: the ring holds values, older than any here: take from it.
    case takeFromRing
  }

  @usableFromInline
  enum SuspendAction {
    case none
    case resume(Waiter, Result<Element?, Failure>, reopenDemand: UInt64)
  }

  @usableFromInline
  enum BoundedSuspendAction {
    /// The consumer waits; it must read the ring once more (see `BoundedRing`).
    case wait
    /// Something changed since the consumer looked: it looks again at once (reopening the demand first, if not 0).
    case lookAgain(reopenDemand: UInt64)
  }

  /// What a `.bounded` value that did not go into the ring does (see `overflowed`).
  @usableFromInline
  struct OverflowAction {
    /// It was buffered beyond the limit: count it.
    @usableFromInline var counted = false
    /// Close the demand with this generation (0: no change).
    @usableFromInline var closeDemand: UInt64 = 0
    /// The consumer waited on the empty ring: resume it.
    @usableFromInline var waiter: BoundedWaiter?

    @inlinable
    init() {}
  }

  @usableFromInline
  enum ValueAction {
    case none
    case resume(Waiter, Element)
    /// The buffer was full: this value was dropped (the arriving one or the oldest buffered one).
    case dropped(Element)
  }

  enum TerminalAction {
    /// Release the subscription's disposable (it has disposed itself) once the lock is released, and resume a
    /// `.bounded` consumer waiting on its ring, if any, to drain it.
    case release((any Disposable)?, BoundedWaiter?)
    case resume(Waiter, Result<Element?, Failure>, release: (any Disposable)?)
  }

  enum CancelAction {
    case none
    /// Close the demand (if any, with this generation) so that a running source stops, dispose the subscription
    /// (if any), then release the buffered values and resume the waiter (if any) with the end, all with the lock
    /// released.
    case cancel(Waiter?, BoundedWaiter?, (any Disposable)?, Ring<Element>, closeDemand: UInt64)
  }

  @usableFromInline let policy: SignalBufferingPolicy
  @usableFromInline var phase = Phase.idle
  @usableFromInline var buffer = Ring<Element>()
  @usableFromInline var waiter: Waiter?
  @usableFromInline var boundedWaiter: BoundedWaiter?
  private var subscription: (any Disposable)?
  /// How many values this iterator's buffer has dropped.
  @usableFromInline var droppedCount = 0
  /// How many values were buffered beyond a `.bounded` limit (and the chain's slack) because their producer cannot
  /// pause.
  @usableFromInline var overflowCount = 0
  /// The most values the iterator has held at once, as the lock saw it: its ring and its overflow (`.bounded` only;
  /// the ring records its own high-water mark for the values that do not pass through here).
  @usableFromInline var highWaterMark = 0
  /// `.bounded` only: whether values must go through the lock, because the ring overflowed (or iteration ended): kept
  /// here, and in the ring for the producer to read without the lock. It stays set until the consumer has taken the
  /// ring, the overflow and its batch of the overflow, so that the values a producer adds meanwhile are counted
  /// with that batch.
  @usableFromInline var diverted = false
  /// `.bounded` only: how many values of the overflow the consumer holds in its private batch, as it last said. They
  /// count against the limit until it says it has taken them: it takes them without the lock, so the figure may be
  /// higher than what it still holds, never lower.
  @usableFromInline var lent = 0
  /// Whether the demand is open (`.bounded` only): closed when the iterator holds the limit, reopened once the
  /// consumer has taken what it holds down to half the limit, so that a paused source resumes for a run of values,
  /// not for each one. Kept here, and in the ring for the consumer to read without the lock.
  @usableFromInline var demandOpen = true
  /// Numbers each change of `demandOpen`, so that the demand applies changes made on different threads in their
  /// order, whichever reaches it first (see `Demand.close(generation:)`).
  @usableFromInline var demandGeneration: UInt64 = 0

  init(policy: SignalBufferingPolicy) {
    self.policy = policy
  }

  // MARK: Consumer

  /// `batch` is the consumer's own, empty buffer: the values buffered after the one returned move there, so that the
  /// consumer takes them without the lock, where the policy allows (`unbounded`, `bounded`, or a terminated signal).
  /// `ringCount` is what a `.bounded` iterator's ring holds, read under the lock (0 for the other policies).
  @inlinable
  mutating func next(batch: inout Ring<Element>, ringCount: Int) -> NextAction {
    switch phase {
    case .idle:
      phase = .streaming
      return .subscribe
    case .streaming:
      if case .bounded(let limit) = policy { return nextBounded(limit, batch: &batch, ringCount: ringCount) }
      guard let element = buffer.popFirst() else { return .suspend }
      if case .unbounded = policy, !buffer.isEmpty { swap(&buffer, &batch) }
      return .returnResult(.success(element), reopenDemand: 0)
    case .draining:
      if ringCount > 0 { return .takeFromRing }  // sent before the terminal event
      let result = drain()
      if !buffer.isEmpty { swap(&buffer, &batch) }
      return .returnResult(result, reopenDemand: 0)
    case .finished:
      return .returnResult(.success(nil), reopenDemand: 0)
    }
  }

  /// `next` for `.bounded(limit)`, the ring found empty and the batch empty, without the lock: the ring first (it may
  /// have filled since), then the overflow, which moves to the consumer's batch; once all three are empty, values go
  /// to the ring again.
  @inlinable
  mutating func nextBounded(_ limit: Int, batch: inout Ring<Element>, ringCount: Int) -> NextAction {
    if ringCount > 0 { return .takeFromRing }
    lent = 0  // the consumer's batch is empty: it has taken all it was lent
    guard let element = buffer.popFirst() else {
      diverted = false
      // The consumer reopens a closed demand as it takes values, so this is a safety net: a closed demand with nothing
      // left to take would keep the sources paused, and this loop waiting, for good.
      let reopening = tookRoom(limit, ringCount: 0, batch: 0)
      return reopening == 0 ? .suspend : .reopenDemand(reopening)
    }
    swap(&buffer, &batch)
    return .returnResult(.success(element), reopenDemand: tookRoom(limit, ringCount: 0, batch: batch.count))
  }

  /// `.bounded`: the consumer has taken values, and holds `ringCount` in the ring and `batch` in its batch: the
  /// generation with which to reopen a closed demand, if what the iterator holds is down to half the limit; 0 if not.
  @inlinable
  mutating func tookRoom(_ limit: Int, ringCount: Int, batch: Int) -> UInt64 {
    lent = batch
    guard !demandOpen, case .streaming = phase, ringCount + buffer.count + lent <= limit / 2 else { return 0 }
    demandOpen = true
    demandGeneration += 1
    return demandGeneration
  }

  /// A `.bounded` consumer that found nothing to take, holding its continuation: waits, unless something changed.
  @inlinable
  mutating func suspendBounded(_ limit: Int, with continuation: BoundedWaiter, ringCount: Int) -> BoundedSuspendAction
  {
    guard case .streaming = phase, ringCount == 0, buffer.isEmpty else { return .lookAgain(reopenDemand: 0) }
    let reopening = tookRoom(limit, ringCount: 0, batch: 0)
    if reopening != 0 { return .lookAgain(reopenDemand: reopening) }
    precondition(
      boundedWaiter == nil,
      "SignalSequence.Iterator.next(): called while another call is waiting; an iterator serves one task")
    boundedWaiter = continuation
    return .wait
  }

  /// The producer saw the consumer waiting: the waiter to resume, if it still waits.
  @inlinable
  mutating func takeBoundedWaiter() -> BoundedWaiter? {
    defer { boundedWaiter = nil }
    return boundedWaiter
  }

  /// Called by a consumer that found nothing buffered, once it holds its continuation. Events may have
  /// arrived in between, so it decides again.
  @inlinable
  mutating func suspend(with continuation: Waiter) -> SuspendAction {
    switch phase {
    case .idle:
      preconditionFailure("SignalSequence: suspended before subscribing")
    case .streaming:
      if let element = buffer.popFirst() {
        return .resume(continuation, .success(element), reopenDemand: 0)
      }
      precondition(
        waiter == nil,
        "SignalSequence.Iterator.next(): called while another call is waiting; an iterator serves one task")
      waiter = continuation
      return .none
    case .draining:
      return .resume(continuation, drain(), reopenDemand: 0)
    case .finished:
      return .resume(continuation, .success(nil), reopenDemand: 0)
    }
  }

  /// Hands out the next buffered value of a terminated signal, or its terminal event at the end.
  @inlinable
  mutating func drain() -> Result<Element?, Failure> {
    guard case .draining(let failure) = phase else { preconditionFailure("SignalSequence: drain() in \(phase)") }
    if let element = buffer.popFirst() { return .success(element) }
    phase = .finished
    if let failure { return .failure(failure) }
    return .success(nil)
  }

  // MARK: Signal

  /// The subscription's disposable arrived (before any event). Returns it if it must be disposed at once,
  /// because iteration was cancelled while subscribing.
  mutating func receivedSubscription(_ disposable: any Disposable) -> (any Disposable)? {
    guard case .streaming = phase else { return disposable }
    subscription = disposable
    return nil
  }

  /// A value arrived.
  ///
  /// Inlinable, with the state it touches, so that it runs specialised for the element type in the module that
  /// makes the iterator (see `SignalSequenceStorage.receive`): the producer's per-value path.
  @inlinable
  mutating func receivedValue(_ element: Element) -> ValueAction {
    guard case .streaming = phase else { return .none }
    if let waiter {
      // A waiting consumer means the buffer is empty: hand the value over directly.
      self.waiter = nil
      return .resume(waiter, element)
    }
    switch policy {
    case .unbounded:
      buffer.append(element)
      return .none
    case .bufferingNewest(let limit):
      guard limit > 0 else {
        droppedCount += 1
        return .dropped(element)
      }
      buffer.append(element)
      guard buffer.count > limit, let oldest = buffer.popFirst() else { return .none }
      droppedCount += 1
      return .dropped(oldest)
    case .bufferingOldest(let limit):
      guard buffer.count < limit else {
        droppedCount += 1
        return .dropped(element)
      }
      buffer.append(element)
      return .none
    case .bounded:
      preconditionFailure(
        "SignalSequence: a .bounded value goes to the ring, or to overflowed(_:limit:slack:ringCount:)")
    }
  }

  /// `.bounded`: a value that could not go into the ring (full, or values go through the lock since it was): buffered
  /// after the ring's, counted if the iterator holds more than the limit and the chain's `slack` with it (what its
  /// stages may put past the limit though their sources paused: `Demand.slack`). The demand closes once the iterator
  /// holds the limit (a ring smaller than the limit fills first); a consumer waiting on the empty ring (it has emptied
  /// it since) is resumed.
  @inlinable
  mutating func overflowed(_ element: Element, limit: Int, slack: Int, ringCount: Int) -> OverflowAction {
    var action = OverflowAction()
    guard case .streaming = phase else { return action }
    diverted = true
    buffer.append(element)
    let held = ringCount + buffer.count + lent
    if held > highWaterMark { highWaterMark = held }
    if held > limit + slack {
      overflowCount += 1
      action.counted = true
    }
    action.closeDemand = closeDemand(limit, ringCount: ringCount)
    action.waiter = takeBoundedWaiter()
    return action
  }

  /// `.bounded`: the generation with which to close the demand, if it is open and the iterator holds the limit; 0 if
  /// not.
  @inlinable
  mutating func closeDemand(_ limit: Int, ringCount: Int) -> UInt64 {
    guard demandOpen, case .streaming = phase, ringCount + buffer.count + lent >= limit else { return 0 }
    demandOpen = false
    demandGeneration += 1
    return demandGeneration
  }

  /// The signal failed (`failure`) or completed (`nil`).
  mutating func receivedTerminal(_ failure: Failure?) -> TerminalAction {
    guard case .streaming = phase else { return .release(nil, nil) }
    let release = subscription
    subscription = nil
    if let waiter {
      self.waiter = nil
      phase = .finished
      return .resume(waiter, failure.map { .failure($0) } ?? .success(nil), release: release)
    }
    phase = .draining(failure)
    return .release(release, takeBoundedWaiter())
  }

  // MARK: Cancellation

  /// The consuming task was cancelled, or the iterator was dropped: end iteration now.
  mutating func cancelled() -> CancelAction {
    if case .finished = phase { return .none }
    phase = .finished
    let waiter = self.waiter
    let boundedWaiter = takeBoundedWaiter()
    let subscription = self.subscription
    let buffered = buffer
    diverted = true
    self.waiter = nil
    self.subscription = nil
    buffer = Ring()
    demandOpen = false
    demandGeneration += 1  // the last change: nothing reopens a finished iterator's demand
    return .cancel(waiter, boundedWaiter, subscription, buffered, closeDemand: demandGeneration)
  }
}
