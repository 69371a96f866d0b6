/// What `deliver(on:)`, `deliverOnMainThread()` and `delay` must do for each input. Pure: no locks, no callouts.
///
/// Each event from the source is queued with a sequence number and delivered by a block scheduled for it.
/// Events keep their order whatever order the blocks run in: the block of event `n` delivers every event
/// still queued up to `n` (each was due no later than `n`), and the blocks of the events it delivered early
/// are cancelled. On one serial scheduler the blocks run in order anyway, so each delivers its own event.
@usableFromInline
struct DeliverStateMachine<Value: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  struct Queued: Sendable {
    @usableFromInline
    let sequence: UInt64
    @usableFromInline
    let event: Event<Value, Failure>

    @inlinable
    init(sequence: UInt64, event: Event<Value, Failure>) {
      self.sequence = sequence
      self.event = event
    }
  }

  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sourceEnded = false
  /// Events waiting for their scheduled block, in sequence order.
  @usableFromInline
  var queued = Ring<Queued>()
  @usableFromInline
  var nextSequence: UInt64 = 0
  /// The scheduled blocks that have not run, by the sequence number of their event.
  @usableFromInline
  var scheduled: [UInt64: any Disposable] = [:]
  /// A bounded hop's block is scheduled and has not yet taken the queue: events queued meanwhile go with it.
  @usableFromInline
  var burstPending = false

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    outbox = Outbox(observer)
  }

  /// Queues an event to be delivered by a scheduled block.
  ///
  /// - Returns: The sequence number the block must carry, or `nil` if the operator has finished.
  @inlinable
  mutating func enqueue(_ event: Event<Value, Failure>) -> UInt64? {
    guard !outbox.isClosed, !sourceEnded else { return nil }
    if event.isTerminating {
      sourceEnded = true
      source = nil
    }
    let sequence = nextSequence
    nextSequence += 1
    queued.append(Queued(sequence: sequence, event: event))
    return sequence
  }

  /// A bounded hop queues an event: its sequence number, and whether a block must be scheduled for it (`false`: a
  /// block that has not taken the queue yet will deliver it); `nil` if the operator has finished.
  @inlinable
  mutating func enqueueInBurst(_ event: Event<Value, Failure>) -> (sequence: UInt64, needsBlock: Bool)? {
    guard let sequence = enqueue(event) else { return nil }
    defer { burstPending = true }
    return (sequence, !burstPending)
  }

  /// `deliverOnMainThread`'s fast path, for an event arriving on the main queue: delivers it now if nothing
  /// is waiting before it.
  ///
  /// - Returns: Whether the event was handled (delivered now, or dropped because the operator has finished).
  @inlinable
  mutating func deliverIfIdle(_ event: Event<Value, Failure>) -> Bool {
    guard !outbox.isClosed, !sourceEnded else { return true }
    guard queued.isEmpty else { return false }
    if event.isTerminating {
      sourceEnded = true
      source = nil
    }
    outbox.send(event)
    return true
  }

  /// The block for event `sequence` has been scheduled: keep its disposable to cancel it, unless it has run.
  @inlinable
  mutating func scheduled(_ disposable: (any Disposable)?, for sequence: UInt64) -> Teardown<Value, Failure> {
    guard let disposable else { return Teardown() }
    guard !outbox.isClosed, let first = queued.first, first.sequence <= sequence else {
      // Already delivered (its block ran before `schedule` returned, or an later block delivered it), or the
      // operator has finished: nothing is left for the block to do.
      var teardown = Teardown<Value, Failure>()
      teardown.dispose(disposable)
      return teardown
    }
    scheduled[sequence] = disposable
    return Teardown()
  }

  /// The block for event `sequence` runs: deliver everything queued up to it. `values` counts the values among
  /// them (a bounded hop gives their room back).
  @inlinable
  mutating func fired(_ sequence: UInt64, values: inout Int) -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    scheduled[sequence] = nil
    while let first = queued.first, first.sequence <= sequence {
      _ = queued.popFirst()
      if first.sequence != sequence { teardown.dispose(scheduled.removeValue(forKey: first.sequence)) }
      if case .next = first.event { values += 1 }
      outbox.send(first.event)
    }
    return teardown
  }

  /// A bounded hop's block runs: deliver everything queued, what came after its own event included. `values`
  /// counts the values among them.
  @inlinable
  mutating func firedBurst(_ sequence: UInt64, values: inout Int) -> Teardown<Value, Failure> {
    scheduled[sequence] = nil
    burstPending = false
    while let first = queued.popFirst() {
      if case .next = first.event { values += 1 }
      outbox.send(first.event)
    }
    return Teardown()
  }

  /// `delay`'s failure, which is not delayed: sent at once; the events still waiting are dropped.
  @inlinable
  mutating func failedNow(_ error: Failure) -> Teardown<Value, Failure> {
    guard !outbox.isClosed, !sourceEnded else { return Teardown() }
    sourceEnded = true
    source = nil
    let teardown = cancelQueued()
    outbox.send(.error(error))
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = cancelQueued()
    teardown.dispose(source)
    source = nil
    sourceEnded = true
    return teardown
  }

  @inlinable
  mutating func cancelQueued() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    queued.removeAll()
    for disposable in scheduled.values { teardown.dispose(disposable) }
    scheduled.removeAll()
    return teardown
  }
}
