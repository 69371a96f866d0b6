import AsyncSignals
import Dispatch
import Synchronization

/// One iterator's subscription: owns the lock over its `SignalSequenceStateMachine` and performs every effect
/// (subscribing, resuming the consumer, disposing, reporting drops) with the lock released.
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
    if case .bounded = policy { demand = Demand() } else { demand = nil }
    self.signal = signal
    self.onDrop = onDrop
    self.drops = drops
    self.overflows = overflows
    self.receiveValue = receive
  }

  var droppedCount: Int {
    state.withLock { $0.droppedCount }
  }

  var overflowCount: Int {
    state.withLock { $0.overflowCount }
  }

  var highWaterMark: Int {
    state.withLock { $0.highWaterMark }
  }

  // MARK: Consumer

  /// The next value, `nil` at the end (completion or cancellation), or the failure.
  ///
  /// `batch` is the consumer's own buffer, empty on entry. With the `unbounded` and `bounded` policies, and once the
  /// signal has terminated, the consumer takes everything buffered at once: the first value is returned, the rest
  /// moves to `batch`, which `Iterator.next` empties without the lock before it calls here again. So the consumer
  /// takes the lock once per burst rather than once per value, and suspends (costing the producer a wake-up) only
  /// when it has caught up. The dropping policies take one value at a time, because what they drop depends on how
  /// many values are buffered. A `bounded` batch still counts against the limit until the consumer has taken it: it
  /// says what it still holds when its batch is down to `checkpoint` values (`tookFromBatch`), so that a paused
  /// source resumes once the batch and the buffer together are down to half the limit, while the batch is still
  /// being taken, and the producer and the consumer keep overlapping.
  ///
  /// Inlinable, with the state machine's consumer side, so that it runs specialised for the element type where the
  /// iterator is used: unspecialised, each call looked up the generic metadata of the state machine's actions, which
  /// was most of the time of a `.bounded` loop when it took one value per call.
  @inlinable
  func next(
    isolation actor: isolated (any Actor)?, batch: inout Ring<Element>, checkpoint: inout Int
  ) async -> Result<Element?, Failure> {
    // A task cancelled while its loop body ran ends the iteration at its next call, before any value.
    if Task.isCancelled {
      batch = Ring()
      checkpoint = -1
      cancel()
    }
    while true {
      switch state.withLock({ $0.next(batch: &batch, checkpoint: &checkpoint) }) {
      case .subscribe:
        // In the caller's task (and isolation): a task is a current context for subscribing, so the signal's
        // subscribe body runs at once, as RAC subscribes on the main thread (guarantee 5). The demand records this
        // task as its consumer, whose own sends into a subject it reads never wait for it.
        demand?.recordConsumer()
        signal.subscribe(self, demand: demand)
      case .returnResult(let result, let reopening):
        reopenDemand(reopening)
        return result
      case .reopenDemand(let reopening):
        reopenDemand(reopening)  // a source resumed here, in this task, may have buffered values: ask again
      case .suspend:
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

  /// `.bounded`: the consumer has taken values from its batch without the lock, down to its checkpoint; `batch` holds
  /// the rest. Refills an emptied batch, reopens the demand if what the iterator holds is down to half the limit, and
  /// moves the checkpoint (see `SignalSequenceStateMachine.tookFromBatch`).
  @inlinable
  func tookFromBatch(_ batch: inout Ring<Element>, checkpoint: inout Int) {
    reopenDemand(state.withLock { $0.tookFromBatch(&batch, checkpoint: &checkpoint) })
  }

  /// Reopens the demand (generation 0: no change), and runs the resumptions of the sources it had paused, with the
  /// lock released. In a task, a resumed `Signal.from` walks here, at once, until the buffer is full again: the
  /// consumer refills its own buffer.
  @usableFromInline
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
      if case .cancel(_, _, _, let closing) = action { demand?.close(generation: closing) }
      return action
    }
    guard case .cancel(let waiter, let subscription, let buffered, _) = action else { return }
    // Then the source is told to stop: before the consumer resumes (so that the loop cannot end ahead of its
    // source), and before paused sources and suspended producers are released, so that they find their
    // subscription disposed.
    subscription?.dispose()
    let resumptions = demand?.end() ?? []
    withExtendedLifetime(buffered) {}  // buffered values are released here, lock released
    waiter?.resume(returning: .success(nil))
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
    switch state.withLock({ $0.receivedValue(value) }) {
    case .none:
      return
    case .closeDemand(let generation):
      demand?.close(generation: generation)
    case .overflowed:
      overflows?.increment()
    case .resume(let waiter, let element):
      waiter.resume(returning: .success(element))
    case .dropped(let element):
      drops?.increment()
      onDrop?(element)
    }
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
    case .release(let subscription):
      withExtendedLifetime(subscription) {}
    case .resume(let waiter, let result, let subscription):
      withExtendedLifetime(subscription) {}
      waiter.resume(returning: result)
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
