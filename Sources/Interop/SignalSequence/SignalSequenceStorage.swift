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
  private let signal: Signal<Element, Failure>
  @usableFromInline let onDrop: (@Sendable (Element) -> Void)?
  @usableFromInline let drops: DropCounter?
  @usableFromInline let overflows: DropCounter?
  /// The room of a `.bounded` buffer, as the sources that can pause see it; `nil` for the other policies. Opened
  /// and closed under `state`'s lock, so that it follows the buffer's count in order; its resumptions run after.
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
    self.state = LockedState(StateMachine(policy: policy))
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
  /// `batch` is the consumer's own buffer, empty on entry. With the `unbounded` policy, and once the signal has
  /// terminated, the consumer takes everything buffered at once: the first value is returned, the rest moves to
  /// `batch`, which `Iterator.next` empties without the lock before it calls here again. So the consumer takes
  /// the lock once per burst rather than once per value, and suspends (costing the producer a wake-up) only when
  /// it has caught up. The dropping and bounded policies take one value at a time, because what they drop or
  /// wait for depends on how many values are buffered.
  @usableFromInline
  func next(isolation actor: isolated (any Actor)?, batch: inout Ring<Element>) async -> Result<Element?, Failure> {
    // A task cancelled while its loop body ran ends the iteration at its next call, before any value.
    if Task.isCancelled {
      batch = Ring()
      cancel()
    }
    while true {
      let (action, resumptions) = state.withLock { state -> (StateMachine.NextAction, [Demand.Resumption]) in
        let action = state.next(batch: &batch)
        guard case .returnResult(_, reopenDemand: true) = action, let demand else { return (action, []) }
        return (action, demand.reopen())
      }
      switch action {
      case .subscribe:
        // In the caller's task (and isolation): a task is a current context for subscribing, so the signal's
        // subscribe body runs at once, as RAC subscribes on the main thread (guarantee 5).
        signal.subscribe(self, demand: demand)
      case .returnResult(let result, _):
        resume(resumptions)
        return result
      case .suspend:
        return await withTaskCancellationHandler(
          operation: {
            await withUnsafeContinuation(isolation: actor) { continuation in
              let (action, resumptions) = state.withLock { state -> (StateMachine.SuspendAction, [Demand.Resumption]) in
                let action = state.suspend(with: continuation)
                guard case .resume(_, _, reopenDemand: true) = action, let demand else { return (action, []) }
                return (action, demand.reopen())
              }
              if case .resume(let waiter, let result, _) = action {
                resume(resumptions)
                waiter.resume(returning: result)
              }
            }
          },
          onCancel: { self.cancel() },
          isolation: actor)
      }
    }
  }

  /// Runs the resumptions of paused sources, with the lock released. In a task, a resumed `Signal.from` walks
  /// here, at once, until the buffer is full again: the consumer refills its own buffer.
  private func resume(_ resumptions: [Demand.Resumption]) {
    for resumption in resumptions { resumption() }
  }

  /// Ends iteration: resumes a waiting consumer with the end and disposes the subscription.
  func cancel() {
    let action = state.withLock { state -> StateMachine.CancelAction in
      let action = state.cancelled()
      demand?.close()  // a source still running pauses before its next value, rather than run on into a drop
      return action
    }
    guard case .cancel(let waiter, let subscription, let buffered) = action else { return }
    // The source is told to stop before anything else: before the consumer resumes (so that the loop cannot end
    // ahead of its source), and before paused sources and suspended producers are released, so that they find
    // their subscription disposed and stop.
    subscription?.dispose()
    let resumptions = demand?.end() ?? []
    withExtendedLifetime(buffered) {}  // buffered values are released here, lock released
    waiter?.resume(returning: .success(nil))
    resume(resumptions)
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
    let action = state.withLock { state -> StateMachine.ValueAction in
      let action = state.receivedValue(value)
      if case .closeDemand = action { demand?.close() }  // under the lock: the demand follows the count in order
      return action
    }
    switch action {
    case .none, .closeDemand:
      return
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
    let (action, resumptions) = state.withLock { state -> (StateMachine.TerminalAction, [Demand.Resumption]) in
      (state.receivedTerminal(failure), demand?.end() ?? [])
    }
    switch action {
    case .release(let subscription):
      withExtendedLifetime(subscription) {}
    case .resume(let waiter, let result, let subscription):
      withExtendedLifetime(subscription) {}
      waiter.resume(returning: result)
    }
    resume(resumptions)
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
