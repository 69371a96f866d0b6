import AsyncSignals
import Dispatch
import Synchronization

/// One iterator's subscription: owns the lock over its `SignalSequenceStateMachine` and performs every effect
/// (subscribing, resuming the consumer, disposing, reporting drops) with the lock released. A `.bounded` iterator's
/// values go through its `BoundedRing` instead, without the lock, as long as they fit; the lock decides the rest.
///
/// It is the subscriber of the signal, so it receives the subscription's disposable before any event and
/// can dispose it even while the subscribe call is still sending. Continuations are resumed after the lock
/// is released (STYLE.md: decide under the lock, act after releasing it), so a cancellation handler racing
/// with a value cannot deadlock against the runtime's own task lock.
@usableFromInline
final class SignalSequenceStorage<Element: Sendable, Failure: Error>: Subscriber, Sendable {
  @usableFromInline typealias StateMachine = SignalSequenceStateMachine<Element, Failure>

  @usableFromInline let state: LockedState<StateMachine>  // guards every decision of the iterator
  @usableFromInline let signal: Signal<Element, Failure>
  @usableFromInline let onDrop: (@Sendable (Element) -> Void)?
  @usableFromInline let drops: DropCounter?
  @usableFromInline let overflows: DropCounter?
  /// The room of a `.bounded` buffer, as the sources that can pause see it; `nil` for the other policies. Opened
  /// and closed with the lock released, each change numbered by the state machine so that the demand applies them
  /// in the order of the buffer's count, whichever thread reaches it first.
  @usableFromInline let demand: Demand?
  /// The buffer of a `.bounded` iterator, which its producer and its consumer share without the lock; `nil` for the
  /// other policies. Its memory is this object's, freed in `deinit`.
  @usableFromInline let ring: BoundedRing<Element>?
  /// `receive(_:)`, specialised for `Element` where the iterator was made (`SignalSequence.makeAsyncIterator`
  /// passes a closure that calls it). This class's own methods are compiled once, for every element type, and an
  /// unspecialised `receive` looks up generic metadata for each value; the closure runs the specialised one.
  private let receiveValue: @Sendable (SignalSequenceStorage, Element) -> Void

  @usableFromInline
  init(
    signal: Signal<Element, Failure>, policy: SignalBufferingPolicy, onDrop: (@Sendable (Element) -> Void)?,
    drops: DropCounter?, overflows: DropCounter?, receive: @escaping @Sendable (SignalSequenceStorage, Element) -> Void
  ) {
    // Spinning: the producer takes the lock for each value and the consumer for each run, from two threads by design.
    // With a plain mutex, a thread that found it taken went to the kernel: 2.4 million futex calls for B13's 6 million
    // values. Spinning made B13's rows 1.25-1.5x faster (Benchmarks README, issue 29, item 5).
    self.state = LockedState(StateMachine(policy: policy), spinning: true)
    if case .bounded(let limit) = policy {
      demand = Demand()
      ring = BoundedRing(limit: limit)
    } else {
      demand = nil
      ring = nil
    }
    self.signal = signal
    self.onDrop = onDrop
    self.drops = drops
    self.overflows = overflows
    self.receiveValue = receive
  }

  deinit {
    ring?.deallocate()  // neither side can touch it now: the values still in it are released
  }

  var droppedCount: Int {
    state.withLock { $0.droppedCount }
  }

  var overflowCount: Int {
    state.withLock { $0.overflowCount }
  }

  var highWaterMark: Int {
    max(state.withLock { $0.highWaterMark }, ring?.highWaterMark ?? 0)
  }

  // MARK: Consumer

  /// The next value, `nil` at the end (completion or cancellation), or the failure: what `Iterator.next` could not
  /// take without the lock.
  ///
  /// `batch` is the consumer's own buffer, empty on entry. With the `unbounded` policy, and once the signal has
  /// terminated, the consumer takes everything buffered at once: the first value is returned, the rest moves to
  /// `batch`, which `Iterator.next` empties without the lock before it calls here again. So the consumer takes the
  /// lock once per burst rather than once per value, and suspends (costing the producer a wake-up) only when it has
  /// caught up. The dropping policies take one value at a time, because what they drop depends on how many values are
  /// buffered. A `.bounded` iterator's values wait in its ring, which `Iterator.next` takes from without the lock; it
  /// comes here when the ring is empty, and the overflow of a producer that cannot pause moves to `batch`.
  ///
  /// Inlinable, with the state machine's consumer side, so that it runs specialised for the element type where the
  /// iterator is used: unspecialised, each call looked up the generic metadata of the state machine's actions.
  @inlinable
  func next(isolation actor: isolated (any Actor)?, batch: inout Ring<Element>) async -> Result<Element?, Failure> {
    // A task cancelled while its loop body ran ends the iteration at its next call, before any value.
    if Task.isCancelled {
      batch = Ring()
      cancel()
    }
    while true {
      let action = state.withLock { state in
        let action = state.next(batch: &batch, ringCount: ring?.count ?? 0)
        ring?.mirror(state)
        return action
      }
      switch action {
      case .subscribe:
        // In the caller's task (and isolation): a task is a current context for subscribing, so the signal's
        // subscribe body runs at once, as RAC subscribes on the main thread (guarantee 5). The demand records this
        // task as its consumer, whose own sends into a subject it reads never wait for it.
        demand?.recordConsumer()
        signal.subscribe(self, demand: demand)
      case .returnResult(let result, let reopening):
        reopenDemand(reopening)
        // Ended: values that reached the ring as iteration was cancelled are released here (a producer that read
        // `diverted` just before it was set). The consumer's side, so no other thread takes from the ring.
        if case .success(nil) = result { ring?.discardAll() }
        return result
      case .reopenDemand(let reopening):
        reopenDemand(reopening)  // a source resumed here, in this task, may have buffered values: ask again
      case .takeFromRing:
        if let ring, let element = take(from: ring) { return .success(element) }
      case .suspend:
        if let ring {
          // A value sent to the waiting consumer is its own, as with the other policies' hand-off: taken even if
          // iteration has been cancelled since.
          if await waitForRing(ring, isolation: actor), let (element, _) = ring.take() { return .success(element) }
          continue
        }
        return await withTaskCancellationHandler(
          operation: {
            await withUnsafeContinuation(isolation: actor) { continuation in
              if case .resume(let waiter, let result, let reopening) = state.withLock({ $0.suspend(with: continuation) }) {
                reopenDemand(reopening)
                waiter.resume(returning: result)
              }
            }
          },
          onCancel: { self.cancel() },
          isolation: actor)
      }
    }
  }

  /// `.bounded`: suspends until a value was sent, or the signal has terminated, or iteration has ended; the caller
  /// then looks again. Says it waits, then reads the ring once more (see `BoundedRing`). Returns whether a value was
  /// sent to it.
  @inlinable
  func waitForRing(_ ring: BoundedRing<Element>, isolation actor: isolated (any Actor)?) async -> Bool {
    await withTaskCancellationHandler(
      operation: {
        await withUnsafeContinuation(isolation: actor) { (continuation: StateMachine.BoundedWaiter) in
          let action = state.withLock { state in
            let action = state.suspendBounded(ring.limit, with: continuation, ringCount: ring.count)
            ring.mirror(state)
            if case .wait = action { ring.setConsumerWaiting(true) }
            return action
          }
          switch action {
          case .wait:
            // A value arrived as it said so: it resumes itself, unless the producer has, and takes the value as any
            // other (not handed: only the producer records a hand-off, so that it reads its own record).
            if ring.hasValueAfterWaiting { wakeConsumer(ring, handing: false) }
          case .lookAgain(let reopening):
            reopenDemand(reopening)
            continuation.resume(returning: false)
          }
        }
      },
      onCancel: { self.cancel() },
      isolation: actor)
  }

  /// `.bounded`: the consumer takes the oldest value from the ring, without the lock, and reopens a closed demand
  /// (the producer is paused) once what the iterator holds is down to half; `nil` if the ring is empty. (Its batch is
  /// empty: the consumer takes from the ring only then.)
  @inlinable
  func take(from ring: BoundedRing<Element>) -> Element? {
    guard let (element, left) = ring.take() else { return nil }
    if ring.demandClosed && left + ring.behindLock <= ring.limit / 2 { tookRoom(ring, batch: 0) }
    return element
  }

  /// `.bounded`: the consumer has taken a value, from the ring or from its `batch` of what waited behind the lock,
  /// and the demand is closed: reopens it if what the iterator holds — the ring, what waits behind the lock, and the
  /// batch — is down to half the limit, read now. Values the resumed source sends while some still wait behind the
  /// lock go there too, after them (`diverted`), so the order holds.
  @inlinable
  func tookRoom(_ ring: BoundedRing<Element>, batch: Int) {
    guard ring.count + ring.behindLock + batch <= ring.limit / 2 else { return }
    let reopening = state.withLock { state in
      let reopening = state.tookRoom(ring.limit, ringCount: ring.count, batch: batch)
      ring.mirror(state)
      return reopening
    }
    reopenDemand(reopening)
  }

  /// Reopens the demand (generation 0: no change), and runs the resumptions of the sources it had paused, with the
  /// lock released. In a task, a resumed `Signal.from` walks here, at once, until the buffer is full again: the
  /// consumer refills its own buffer.
  @inlinable
  func reopenDemand(_ generation: UInt64) {
    guard generation != 0, let demand else { return }
    for resumption in demand.reopen(generation: generation) { resumption() }
  }

  /// Ends iteration: resumes a waiting consumer with the end and disposes the subscription.
  @usableFromInline
  func cancel() {
    let action = state.withLock { state -> StateMachine.CancelAction in
      let action = state.cancelled()
      // Under the lock, at the moment the buffer stops keeping values: a source still running pauses before its
      // next value rather than run on into a buffer that drops it, however long this thread takes to go on.
      if case .cancel(_, _, _, _, let closing) = action { demand?.close(generation: closing) }
      ring?.mirror(state)  // values go through the lock from now on, and are ignored there
      return action
    }
    guard case .cancel(let waiter, let boundedWaiter, let subscription, let buffered, _) = action else { return }
    // Then the source is told to stop: before the consumer resumes (so that the loop cannot end ahead of its
    // source), and before paused sources and suspended producers are released, so that they find their
    // subscription disposed.
    subscription?.dispose()
    let resumptions = demand?.end() ?? []
    withExtendedLifetime(buffered) {}  // buffered values are released here, lock released
    waiter?.resumeFromAnotherThread(returning: .success(nil))
    // It finds the iteration ended, and releases what its ring holds.
    boundedWaiter?.resumeFromAnotherThread(returning: false)
    for resumption in resumptions { resumption() }
  }

  // MARK: Subscriber

  @usableFromInline
  func didSubscribe(with disposable: any Disposable) {
    state.withLock { $0.receivedSubscription(disposable) }?.dispose()
  }

  @usableFromInline
  func sendNext(_ value: Element) {
    receiveValue(self, value)
  }

  /// A value from the signal: hands it to a waiting consumer, buffers it, drops it, or waits for room, as the
  /// policy says.
  @inlinable
  func receive(_ value: Element) {
    if let ring {
      receiveBounded(value, ring)
      return
    }
    switch state.withLock({ $0.receivedValue(value) }) {
    case .none:
      return
    case .resume(let waiter, let element):
      waiter.resumeFromAnotherThread(returning: .success(element))
    case .dropped(let element):
      drops?.increment()
      onDrop?(element)
    }
  }

  /// `.bounded`: into the ring, without the lock, unless values go through the lock (`diverted`) or it is full. The
  /// value that fills it closes the demand; a consumer waiting on the empty ring is woken.
  @inlinable
  func receiveBounded(_ value: Element, _ ring: BoundedRing<Element>) {
    guard !ring.diverted, let count = ring.append(value) else {
      overflowBounded(value, ring)
      return
    }
    appended(count, to: ring)
  }

  /// `.bounded`: a value went into the ring, which now holds `count`: a consumer waiting for it is woken, and the value
  /// that fills it closes the demand. In that order: a value handed to the waiting consumer is its own, and does not
  /// count against the limit, so the hand-off is recorded before the ring's fullness is judged (under the lock, with
  /// the count read afresh): a `.bounded(1)` loop woken with a value leaves its one place open.
  @inlinable
  func appended(_ count: Int, to ring: BoundedRing<Element>) {
    if ring.consumerWaiting { wakeConsumer(ring, handing: true) }
    if count >= ring.limit { closeFullDemand(ring) }
  }

  /// `.bounded`: a value that found the ring full, or values diverted through the lock. Under the lock, it goes into
  /// the ring if that has room and values are not diverted (the consumer has taken since), and is buffered after the
  /// ring's values otherwise, counted beyond the limit.
  ///
  /// Inlinable, so that it is specialised for the element type where the loop is made (a thread's `sendNext` into a
  /// full loop takes it for every value), but never inlined: inlined into `receiveBounded`, it made the sender's
  /// every-value path too large for the optimiser to inline through, and cost a loop fed by `await send` a fifth more
  /// per value. `closeFullDemand` and `wakeConsumer` likewise.
  @inlinable @inline(never)
  func overflowBounded(_ value: Element, _ ring: BoundedRing<Element>) {
    // The count if it went into the ring; what the overflow does otherwise.
    let (appended, overflow) = state.withLock { state -> (Int?, StateMachine.OverflowAction) in
      if !state.diverted, case .streaming = state.phase, let count = ring.append(value) { return (count, .init()) }
      let action = state.overflowed(value, limit: ring.limit, slack: demand?.slack ?? 0, ringCount: ring.count)
      // Closed under the lock, in the step that diverts values to it: the ring is full.
      if action.closeDemand != 0 { demand?.close(generation: action.closeDemand) }
      ring.mirror(state)
      return (nil, action)
    }
    if let appended {
      self.appended(appended, to: ring)
      return
    }
    if overflow.counted { overflows?.increment() }
    overflow.waiter?.resumeFromAnotherThread(returning: true)
  }

  /// `.bounded`: the producer filled the ring: closes the demand, if it is open and the ring is still full (the
  /// consumer may have taken since), so that sources that can pause stop before their next value.
  @inlinable @inline(never)
  func closeFullDemand(_ ring: BoundedRing<Element>) {
    state.withLock { state in
      let closing = state.closeDemand(ring.limit, ringCount: ring.count)
      guard closing != 0 else { return }
      demand?.close(generation: closing)
      ring.mirror(state)
    }
  }

  /// `.bounded`: the producer (`handing`), or the consumer itself, saw the consumer waiting on the ring and a value in
  /// it: resumes the consumer, if it still waits, and the producer hands it the value (see `BoundedRing`).
  ///
  /// The ring is looked at again here: the producer's wake-up may come late, after the consumer has taken the value
  /// itself and waits again, on an empty ring. That consumer is left waiting, for the producer's next value to wake:
  /// a hand-off recorded then would be of the next value, which the consumer would not count as its own.
  @inlinable @inline(never)
  func wakeConsumer(_ ring: BoundedRing<Element>, handing: Bool) {
    let waiter = state.withLock { state -> StateMachine.BoundedWaiter? in
      guard ring.hasValue else { return nil }
      let waiter = state.takeBoundedWaiter()
      if waiter != nil && handing { ring.handOff() }
      ring.setConsumerWaiting(false)
      return waiter
    }
    waiter?.resumeFromAnotherThread(returning: handing)
  }

  @usableFromInline
  func sendError(_ error: Failure) {
    terminate(error)
  }

  @usableFromInline
  func sendCompleted() {
    terminate(nil)
  }

  private func terminate(_ failure: Failure?) {
    switch state.withLock({ $0.receivedTerminal(failure) }) {
    case .release(let subscription, let boundedWaiter):
      withExtendedLifetime(subscription) {}
      boundedWaiter?.resumeFromAnotherThread(returning: false)  // it drains the ring, then ends
    case .resume(let waiter, let result, let subscription):
      withExtendedLifetime(subscription) {}
      waiter.resumeFromAnotherThread(returning: result)
    }
    // No more values will be taken: paused sources and suspended producers are released.
    for resumption in demand?.end() ?? [] { resumption() }
  }
}

/// The number of values a sequence's iterators have dropped, together.
@usableFromInline
final class DropCounter: Sendable {
  private let count = Atomic<Int>(0)  // guarded by: atomicity

  init() {}

  var value: Int { count.load(ordering: .relaxed) }

  @usableFromInline
  func increment() {
    count.add(1, ordering: .relaxed)
  }
}
