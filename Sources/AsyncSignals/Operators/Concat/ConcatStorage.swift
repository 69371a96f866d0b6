import Synchronization

/// Performs one subscription of `concat(_:)` or `Signal.concat(_:)`: owns the lock and the run's state, subscribes
/// to the inner signals the state machine admits with the lock released, and is the subscription's disposable.
///
/// It does not hold the downstream observer: `ConcatLink` does, and the inner subscriptions hold the link, so a
/// subscription that has ended releases what the observer captured even while its user keeps this disposable
/// (guarantee 8). Not generic, as the state machine: one compiled engine for every `Value` and `Failure`.
@usableFromInline
final class ConcatStorage: Disposable {
  private let state: LockedState<ConcatStateMachine>  // guards every decision of the operator
  /// Set by `dispose()`; read before each event is passed on.
  private let disposed = Atomic<Bool>(false)

  private init(_ machine: consuming ConcatStateMachine) {
    state = LockedState(machine)
  }

  /// Subscribes `observer` to the signals of `pending` (the next one last), then to those of `signals`, one after
  /// the other; see `ConcatStateMachine` for `trampolined`.
  @usableFromInline
  static func attach<Value: Sendable, Failure: Error>(
    pending: consuming [ErasedSignal], signals: [ErasedSignal], trampolined: Bool, observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = ConcatStorage(ConcatStateMachine(signals: signals, pending: pending, trampolined: trampolined))
    let link = TypedConcatLink<Value, Failure>(observer.raw, storage: storage)
    storage.perform(storage.state.withLock { $0.start() }, link)
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  @usableFromInline
  func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    end()
  }

  /// Ends the run (failure, downstream `.stop`, disposal): nothing more is subscribed; the live subscription is
  /// disposed.
  func end() {
    state.withLock { $0.end() }?.dispose()
  }

  /// The live inner signal completed, inside its callback.
  func innerCompleted(_ link: ConcatLink) {
    let (step, finished) = state.withLock { $0.innerCompleted() }
    perform(step, link)
    finished?.dispose()
  }

  private func perform(_ step: ConcatStateMachine.Step, _ link: ConcatLink) {
    switch step {
    case .none: break
    case .complete: _ = link.observer(.completed, nil)
    case .subscribe(let signal, let turn): run(from: signal, turn: turn, link)
    }
  }

  /// Subscribes to `first` and, trampolined, to each signal that completes inside its `attach`'s successor, in a
  /// loop rather than by recursion.
  private func run(from first: ErasedSignal, turn: Int, _ link: ConcatLink) {
    var signal = first
    var turn = turn
    while true {
      let subscription = link.attach(signal)
      let (step, ended) = state.withLock { $0.attachReturned(subscription, turn: turn) }
      guard case .subscribe(let next, let nextTurn) = step else {
        perform(step, link)
        ended?.dispose()
        return
      }
      ended?.dispose()
      signal = next
      turn = nextTurn
    }
  }
}

/// The downstream end of one `concat` subscription: what every inner subscription's observer captures (one
/// reference, so that observer needs no closure context of its own), and what attaches an inner signal with its
/// type (`TypedConcatLink`).
@usableFromInline
class ConcatLink: @unchecked Sendable {
  // guarded by: immutability (`observer` and `storage` are `let`s).
  let observer: RawObserver
  let storage: ConcatStorage

  init(_ observer: @escaping RawObserver, storage: ConcatStorage) {
    self.observer = observer
    self.storage = storage
  }

  /// Attaches the inner observer to `signal`, one of the signals of this subscription's type.
  func attach(_ signal: ErasedSignal) -> any Disposable {
    preconditionFailure("ConcatLink.attach(_:) must be overridden")
  }

  /// The observer of every inner subscription: values pass on as they come, on the sending thread (one inner is
  /// live at a time, so they arrive one at a time); a completion goes on with the next signal.
  final var innerObserver: RawObserver {
    { [self] kind, payload in received(kind, payload) }
  }

  private final func received(_ kind: EventKind, _ payload: UnsafeRawPointer?) -> Flow {
    guard !storage.isDisposed else { return .stop }
    switch kind {
    case .next:
      let flow = observer(.next, payload)
      if flow == .stop { storage.end() }
      return flow
    case .error:
      _ = observer(.error, payload)
      storage.end()
    case .completed:
      storage.innerCompleted(self)
    }
    return .stop
  }
}

/// A `ConcatLink` that knows its signals' type.
@usableFromInline
final class TypedConcatLink<Value: Sendable, Failure: Error>: ConcatLink, @unchecked Sendable {
  // guarded by: immutability (no stored properties of its own).

  override func attach(_ signal: ErasedSignal) -> any Disposable {
    // Every signal this subscription holds is a `Signal<Value, Failure>`: `ConcatSignal` and `Signal.concat(_:)`
    // erase nothing else. A cast that cannot fail, without asking the runtime for the type's metadata.
    unsafeDowncast(signal, to: Signal<Value, Failure>.self).attach(Observer(raw: innerObserver))
  }
}
