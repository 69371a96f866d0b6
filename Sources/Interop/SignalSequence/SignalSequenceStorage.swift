import AsyncSignals
import Synchronization

/// One iterator's subscription: owns the lock over its `SignalSequenceStateMachine` and performs every effect
/// (subscribing, resuming the consumer, disposing, reporting drops) with the lock released.
///
/// It is the subscriber of the signal, so it receives the subscription's disposable before any event and
/// can dispose it even while the subscribe call is still sending. Continuations are resumed after the lock
/// is released (STYLE.md: decide under the lock, act after releasing it), so a cancellation handler racing
/// with a value cannot deadlock against the runtime's own task lock.
final class SignalSequenceStorage<Element: Sendable, Failure: Error>: Subscriber, Sendable {
  typealias StateMachine = SignalSequenceStateMachine<Element, Failure>

  private let state: LockedState<StateMachine>  // guards every decision of the iterator
  private let signal: Signal<Element, Failure>
  private let onDrop: (@Sendable (Element) -> Void)?
  private let drops: DropCounter?

  init(
    signal: Signal<Element, Failure>, policy: SignalBufferingPolicy, onDrop: (@Sendable (Element) -> Void)?,
    drops: DropCounter?
  ) {
    self.state = LockedState(StateMachine(policy: policy))
    self.signal = signal
    self.onDrop = onDrop
    self.drops = drops
  }

  var droppedCount: Int {
    state.withLock { $0.droppedCount }
  }

  // MARK: Consumer

  /// The next value, `nil` at the end (completion or cancellation), or the failure.
  func next(isolation actor: isolated (any Actor)?) async -> Result<Element?, Failure> {
    // A task cancelled while its loop body ran ends the iteration at its next call, before any value.
    if Task.isCancelled { cancel() }
    while true {
      switch state.withLock({ $0.next() }) {
      case .subscribe:
        // In the caller's isolation: on the main actor a scheduler is current, so the signal's subscribe
        // body runs at once, as RAC subscribes on the main thread (guarantee 5).
        signal.subscribe(self)
      case .returnResult(let result):
        return result
      case .suspend:
        return await withTaskCancellationHandler(
          operation: {
            await withUnsafeContinuation(isolation: actor) { continuation in
              if case .resume(let waiter, let result) = state.withLock({ $0.suspend(with: continuation) }) {
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
    guard case .cancel(let waiter, let subscription, let buffered) = state.withLock({ $0.cancelled() }) else {
      return
    }
    withExtendedLifetime(buffered) {}  // buffered values are released here, lock released
    waiter?.resume(returning: .success(nil))
    subscription?.dispose()
  }

  // MARK: Subscriber

  func didSubscribe(with disposable: any Disposable) {
    state.withLock { $0.receivedSubscription(disposable) }?.dispose()
  }

  func sendNext(_ value: Element) {
    switch state.withLock({ $0.receivedValue(value) }) {
    case .none:
      break
    case .resume(let waiter, let element):
      waiter.resume(returning: .success(element))
    case .dropped(let element):
      drops?.increment()
      onDrop?(element)
    }
  }

  func sendError(_ error: Failure) {
    terminate(error)
  }

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
final class DropCounter: Sendable {
  private let count = Atomic<Int>(0)  // guarded by: atomicity

  init() {}

  var value: Int { count.load(ordering: .relaxed) }

  func increment() {
    count.add(1, ordering: .relaxed)
  }
}
