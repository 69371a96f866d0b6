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
  /// A producer waiting for room in a `.bounded` buffer waits on this; the consumer signals it once per wait.
  @usableFromInline let room = DispatchSemaphore(value: 0)
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
      switch state.withLock({ $0.next(consumerExecutor: actor.map { ActorExecutor(of: $0) }, batch: &batch) }) {
      case .subscribe:
        // In the caller's task (and isolation): a task is a current context for subscribing, so the signal's
        // subscribe body runs at once, as RAC subscribes on the main thread (guarantee 5).
        signal.subscribe(self)
      case .returnResult(let result, let wakeProducer):
        if wakeProducer { room.signal() }
        return result
      case .suspend:
        return await withTaskCancellationHandler(
          operation: {
            await withUnsafeContinuation(isolation: actor) { continuation in
              if case .resume(let waiter, let result, let wakeProducer) = state.withLock({
                $0.suspend(with: continuation)
              }) {
                if wakeProducer { room.signal() }
                waiter.resume(returning: result)
              }
            }
          },
          onCancel: { self.cancel() },
          isolation: actor)
      }
    }
  }

  /// Ends iteration: resumes a waiting consumer with the end and disposes the subscription.
  func cancel() {
    guard case .cancel(let waiter, let subscription, let buffered, let wakeProducer) = state.withLock({ $0.cancelled() })
    else {
      return
    }
    if wakeProducer { room.signal() }
    withExtendedLifetime(buffered) {}  // buffered values are released here, lock released
    waiter?.resume(returning: .success(nil))
    subscription?.dispose()
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
    while true {
      switch state.withLock({ $0.receivedValue(value, producerMayWait: Self.producerMayWait) }) {
      case .none:
        return
      case .overflowed:
        overflows?.increment()
        return
      case .resume(let waiter, let element):
        waiter.resume(returning: .success(element))
        return
      case .dropped(let element):
        drops?.increment()
        onDrop?(element)
        return
      case .waitForRoom:
        room.wait()  // the consumer took a value, or iteration ended: offer the value again
      }
    }
  }

  /// A producer may block its thread for room only on a plain thread or a Dispatch queue: never in a task, where
  /// it would hold one of the cooperative pool's few threads (perhaps the one the consumer needs), nor on the
  /// consumer's own executor, where the consumer could never run to make room.
  @usableFromInline
  static func producerMayWait(_ consumerExecutor: ActorExecutor?) -> Bool {
    if withUnsafeCurrentTask(body: { $0 != nil }) { return false }
    return !(consumerExecutor?.isCurrent ?? false)
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
