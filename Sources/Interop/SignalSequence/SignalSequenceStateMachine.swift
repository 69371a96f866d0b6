import AsyncSignals

/// What one iterator of a ``SignalSequence`` must do for each input: the signal's events, the consumer's
/// calls to `next`, and cancellation. Pure: no locks, no callouts. `SignalSequenceStorage` runs it under its
/// lock and performs the actions it returns with the lock released.
///
/// Phases: `idle` (no call to `next` yet, so no subscription: cold stays cold until iteration starts) →
/// `streaming` (subscribed; values are handed to a waiting consumer or buffered) → `draining` (the signal
/// terminated; buffered values are still handed out, then the terminal event) → `finished` (the consumer has
/// seen the end, or iteration was cancelled; nothing more is buffered or delivered).
@usableFromInline
struct SignalSequenceStateMachine<Element: Sendable, Failure: Error>: Sendable {
  /// A consumer suspended in `next`, resumed with a value, the end (`nil`) or the failure.
  @usableFromInline typealias Waiter = UnsafeContinuation<Result<Element?, Failure>, Never>

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
    /// Nothing buffered, but the consumer has taken all it held since it last said so, which makes room: reopen the
    /// demand with this generation (`.bounded` only), then ask again.
    case reopenDemand(UInt64)
  }

  @usableFromInline
  enum SuspendAction {
    case none
    case resume(Waiter, Result<Element?, Failure>, reopenDemand: UInt64)
  }

  @usableFromInline
  enum ValueAction {
    case none
    case resume(Waiter, Element)
    /// The buffer was full: this value was dropped (the arriving one or the oldest buffered one).
    case dropped(Element)
    /// `.bounded`: buffered, and the buffer is now full: close the demand (with this generation), so that sources
    /// that can pause stop.
    case closeDemand(UInt64)
    /// `.bounded` and full: buffered beyond the limit (its producer cannot pause), and counted.
    case overflowed
  }

  enum TerminalAction {
    /// Release the subscription's disposable (it has disposed itself) once the lock is released.
    case release((any Disposable)?)
    case resume(Waiter, Result<Element?, Failure>, release: (any Disposable)?)
  }

  enum CancelAction {
    case none
    /// Close the demand (if any, with this generation) so that a running source stops, dispose the subscription
    /// (if any), then release the buffered values and resume the waiter (if any) with the end, all with the lock
    /// released.
    case cancel(Waiter?, (any Disposable)?, Ring<Element>, closeDemand: UInt64)
  }

  @usableFromInline let policy: SignalBufferingPolicy
  @usableFromInline var phase = Phase.idle
  @usableFromInline var buffer = Ring<Element>()
  @usableFromInline var waiter: Waiter?
  private var subscription: (any Disposable)?
  /// How many values this iterator's buffer has dropped.
  @usableFromInline var droppedCount = 0
  /// How many values were buffered beyond a `.bounded` limit because their producer cannot pause.
  @usableFromInline var overflowCount = 0
  /// The most values the iterator has held at once, its private batch included (`.bounded` only; see `held`).
  @usableFromInline var highWaterMark = 0
  /// `.bounded` only: how many values the consumer holds in its private batch, as it last said (when it took the
  /// lock). They count against the limit until the consumer says it has taken them: it takes them without the lock,
  /// so the figure may be higher than what it still holds, never lower.
  @usableFromInline var lent = 0
  /// Whether the demand is open (`.bounded` only): closed when the iterator holds the limit, reopened once the
  /// consumer has taken what it holds down to half the limit, so that a paused source resumes for a run of values,
  /// not for each one.
  @usableFromInline var demandOpen = true
  /// Numbers each change of `demandOpen`, so that the demand applies changes made on different threads in their
  /// order, whichever reaches it first (see `Demand.close(generation:)`).
  @usableFromInline var demandGeneration: UInt64 = 0

  init(policy: SignalBufferingPolicy) {
    self.policy = policy
  }

  // MARK: Consumer

  /// The values a `.bounded` iterator holds: those buffered, and those in the consumer's private batch as it last
  /// said. This, not the buffer alone, is what the limit bounds, what fills and reopens the demand, and what is
  /// counted past the limit.
  @inlinable
  var held: Int { buffer.count + lent }

  /// `batch` is the consumer's own, empty buffer: the values buffered after the one returned move there, so that the
  /// consumer takes them without the lock, where the policy allows (`unbounded`, `bounded`, or a terminated signal).
  /// `checkpoint` is set to how many values the consumer may have left in `batch` when it must call
  /// `tookFromBatch` (-1: never; see there).
  @inlinable
  mutating func next(batch: inout Ring<Element>, checkpoint: inout Int) -> NextAction {
    switch phase {
    case .idle:
      phase = .streaming
      return .subscribe
    case .streaming:
      if case .bounded(let limit) = policy { return nextBounded(limit, batch: &batch, checkpoint: &checkpoint) }
      guard let element = buffer.popFirst() else { return .suspend }
      if case .unbounded = policy, !buffer.isEmpty { swap(&buffer, &batch) }
      return .returnResult(.success(element), reopenDemand: 0)
    case .draining:
      let result = drain()
      if !buffer.isEmpty { swap(&buffer, &batch) }
      checkpoint = -1
      return .returnResult(result, reopenDemand: 0)
    case .finished:
      checkpoint = -1
      return .returnResult(.success(nil), reopenDemand: 0)
    }
  }

  /// `next` for `.bounded(limit)`: the consumer, its batch empty, takes the first value and moves the rest to its
  /// batch, where they still count against the limit (`lent`).
  @inlinable
  mutating func nextBounded(_ limit: Int, batch: inout Ring<Element>, checkpoint: inout Int) -> NextAction {
    lent = 0  // the consumer's batch is empty: it has taken all it was lent
    guard let element = buffer.popFirst() else {
      // The checkpoints reopen a closed demand before the consumer has taken everything, so this is a safety net: a
      // closed demand with nothing left to take would keep the sources paused, and this loop waiting, for good.
      let reopening = tookRoom()
      return reopening == 0 ? .suspend : .reopenDemand(reopening)
    }
    if !buffer.isEmpty {
      swap(&buffer, &batch)
      lent = batch.count
    }
    checkpoint = self.checkpoint(limit)
    return .returnResult(.success(element), reopenDemand: tookRoom())
  }

  /// `.bounded`: the consumer has taken values from its private batch without the lock, down to its checkpoint, and
  /// says what it still holds (`batch`). If that emptied the batch, the values buffered since move there. Returns the
  /// generation with which to reopen the demand if what the iterator holds is down to half the limit (0 if not), and
  /// sets the next checkpoint.
  @inlinable
  mutating func tookFromBatch(_ batch: inout Ring<Element>, checkpoint: inout Int) -> UInt64 {
    guard case .streaming = phase, case .bounded(let limit) = policy else {
      checkpoint = -1  // ended: nothing more to reopen
      return 0
    }
    if batch.isEmpty, !buffer.isEmpty { swap(&buffer, &batch) }
    lent = batch.count
    checkpoint = self.checkpoint(limit)
    return tookRoom()
  }

  /// The number of values the consumer will have left in its batch when it must say so (`tookFromBatch`), so that a
  /// closed demand reopens as soon as what the iterator holds is down to half the limit, though the consumer takes
  /// from its batch without the lock; -1 if no such point comes before the batch is empty (the consumer's next call
  /// to `next` decides then).
  ///
  /// The consumer takes from its batch before the buffer, and the buffer only grows meanwhile; so what is held falls
  /// to half no sooner than when the batch is down to half less the buffer now. If it is there already (the demand is
  /// open), the demand can close again only once the buffer has filled up to the limit less the batch, and what is
  /// held falls to half no sooner than when the batch is down to the half less that.
  @inlinable
  func checkpoint(_ limit: Int) -> Int {
    let half = limit / 2
    let whenHalf = half - buffer.count
    if whenHalf < 0 { return -1 }
    if whenHalf < lent { return whenHalf }
    let whenHalfAfterClosing = lent - (limit - half)
    return whenHalfAfterClosing >= 0 ? whenHalfAfterClosing : -1
  }

  /// The generation with which to reopen a closed demand, if the consumer, having taken values, made room enough
  /// (what the iterator holds is down to half the `.bounded` limit); 0 if not.
  @inlinable
  mutating func tookRoom() -> UInt64 {
    guard !demandOpen, case .bounded(let limit) = policy, held <= limit / 2 else { return 0 }
    demandOpen = true
    demandGeneration += 1
    return demandGeneration
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
        return .resume(continuation, .success(element), reopenDemand: tookRoom())
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
    case .bounded(let limit):
      buffer.append(element)
      let held = self.held
      if held > highWaterMark { highWaterMark = held }
      if held > limit {
        overflowCount += 1
        return .overflowed
      }
      guard held == limit, demandOpen else { return .none }
      demandOpen = false
      demandGeneration += 1
      return .closeDemand(demandGeneration)
    }
  }

  /// The signal failed (`failure`) or completed (`nil`).
  mutating func receivedTerminal(_ failure: Failure?) -> TerminalAction {
    guard case .streaming = phase else { return .release(nil) }
    let release = subscription
    subscription = nil
    if let waiter {
      self.waiter = nil
      phase = .finished
      return .resume(waiter, failure.map { .failure($0) } ?? .success(nil), release: release)
    }
    phase = .draining(failure)
    return .release(release)
  }

  // MARK: Cancellation

  /// The consuming task was cancelled, or the iterator was dropped: end iteration now.
  mutating func cancelled() -> CancelAction {
    if case .finished = phase { return .none }
    phase = .finished
    let waiter = self.waiter
    let subscription = self.subscription
    let buffered = buffer
    self.waiter = nil
    self.subscription = nil
    buffer = Ring()
    demandOpen = false
    demandGeneration += 1  // the last change: nothing reopens a finished iterator's demand
    return .cancel(waiter, subscription, buffered, closeDemand: demandGeneration)
  }
}
