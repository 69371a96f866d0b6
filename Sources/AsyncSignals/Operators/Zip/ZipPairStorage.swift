// `zip(with:)`: the two-input zip that every heterogeneous arity folds into, on a path of its own.
//
// The engine that `zip` shares with `combineLatest` (Combining/CombiningStorage.swift) pays, per pair, for its
// generality: a generic ring per input, a count array, a typed event queued in an outbox ring and taken out again,
// and a copy of the observer (a retain and a release) per delivery. Two inputs need none of it:
//
// - Each input keeps its waiting values in a `PairQueue`: the first one inline, the rest (only while one side
//   runs more than one value ahead) in a ring.
// - The thread whose value completes a pair delivers it straight away, if no delivery is in progress: the pair
//   never enters a queue. Only what is decided while another thread (or an outer call on this one) delivers is
//   queued, in order, for that deliverer (guarantees 1 and 6, as in Internal/Outbox.swift).
// - The observer lives in a `RawObserverBox` held through one unmanaged reference. The deliverer calls it borrowed,
//   without retaining it: only the deliverer's turn can release it (at the end of the turn), and a disposal during
//   a turn leaves the release to that turn.
//
// So a pair costs three lock round trips (one per value, one to end the turn) and no reference counting.

/// What `zip(with:)` decides under its lock. Pure: no locks, no callouts.
@usableFromInline
struct ZipPairState<First: Sendable, Second: Sendable, Failure: Error>: Sendable {
  @usableFromInline
  typealias Output = (First, Second)

  @usableFromInline var left = PairQueue<First>()
  @usableFromInline var right = PairQueue<Second>()
  @usableFromInline var leftSubscription: (any Disposable)?
  @usableFromInline var rightSubscription: (any Disposable)?
  @usableFromInline var leftCompleted = false
  @usableFromInline var rightCompleted = false
  /// The downstream observer, until it is released: by the turn that delivers the terminal event, or by the end
  /// of the turn in progress when the subscription is disposed or stopped, or at once when no turn is.
  @usableFromInline var observer: Unmanaged<RawObserverBox>?
  /// Whether a thread is delivering (its turn); only that thread calls the observer.
  @usableFromInline var isDelivering = false
  /// Events decided during a turn, for its deliverer to send in order after the one in progress.
  @usableFromInline var queued = Ring<Event<Output, Failure>>()
  /// Set by a decided terminal event, a `.stop` from downstream, or disposal: nothing is decided afterwards.
  @usableFromInline var isClosed = false

  @inlinable
  init(observer: Observer<Output, Failure>) {
    self.observer = .passRetained(RawObserverBox(observer.raw))
  }

  /// What a caller must do once the lock is released. Trivial to copy and destroy on the path of a value: the
  /// rare work (an operator that ends) is in a `ZipTeardown`, allocated only then.
  @usableFromInline
  struct Step {
    /// An event the caller must deliver now, in a turn it has just begun or continues, to `observer`.
    @usableFromInline var delivery: Event<Output, Failure>?
    @usableFromInline var observer: Unmanaged<RawObserverBox>?
    @usableFromInline var teardown: ZipTeardown?
    /// The answer to the input that sent: `.stop` once the operator has ended.
    @usableFromInline var flow: Flow = .proceed

    @inlinable
    init() {}

    @inlinable
    init(flow: Flow) {
      self.flow = flow
    }
  }

  @inlinable
  mutating func receivedLeft(_ value: First) -> Step {
    guard !isClosed else { return stopped() }
    guard !right.isEmpty else {
      left.append(value)
      return Step()
    }
    return decide(.next((value, right.removeFirst())), completing: rightCompleted && right.isEmpty)
  }

  @inlinable
  mutating func receivedRight(_ value: Second) -> Step {
    guard !isClosed else { return stopped() }
    guard !left.isEmpty else {
      right.append(value)
      return Step()
    }
    return decide(.next((left.removeFirst(), value)), completing: leftCompleted && left.isEmpty)
  }

  /// RAC's rule: an input that completes with nothing waiting for its partner completes the result.
  @inlinable
  mutating func completed(left isLeft: Bool) -> Step {
    guard !isClosed else { return stopped() }
    if isLeft {
      leftCompleted = true
      leftSubscription = nil
      guard left.isEmpty else { return Step() }
    } else {
      rightCompleted = true
      rightSubscription = nil
      guard right.isEmpty else { return Step() }
    }
    return finish(.completed)
  }

  @inlinable
  mutating func failed(_ error: Failure) -> Step {
    guard !isClosed else { return stopped() }
    return finish(.error(error))
  }

  /// Keeps the subscription to one input, unless that input or the whole operator has already ended.
  ///
  /// - Returns: the step, whose `flow` says whether the caller should subscribe to the next input.
  @inlinable
  mutating func attached(_ disposable: any Disposable, left isLeft: Bool) -> Step {
    var step = Step()
    if isClosed || (isLeft ? leftCompleted : rightCompleted) {
      step.teardown = ZipTeardown(disposing: disposable)
    } else if isLeft {
      leftSubscription = disposable
    } else {
      rightSubscription = disposable
    }
    step.flow = isClosed ? .stop : .proceed
    return step
  }

  /// The deliverer has delivered an event, which the observer answered with `flow`: the next event of its turn,
  /// or the end of the turn.
  @inlinable
  mutating func delivered(_ event: Event<Output, Failure>, flow: Flow) -> Step {
    var step = flow == .stop && !event.isTerminating ? stop() : Step()
    if let next = queued.popFirst() {
      step.delivery = next
      step.observer = observer
      return step
    }
    isDelivering = false
    if isClosed, let observer {
      self.observer = nil
      step.teardown = ZipTeardown(releasing: observer, after: step.teardown)
    }
    return step
  }

  /// Downstream answered `.stop`, or the subscription is disposed: nothing more is delivered, and every input
  /// subscription and waiting value goes.
  @inlinable
  mutating func stop() -> Step {
    var step = Step(flow: .stop)
    step.teardown = releaseInputs()
    isClosed = true
    queued.removeAll()
    if !isDelivering, let observer {
      self.observer = nil
      step.teardown = ZipTeardown(releasing: observer, after: step.teardown)
    }
    return step
  }

  @inlinable
  func stopped() -> Step {
    Step(flow: .stop)
  }

  @inlinable
  mutating func finish(_ event: Event<Output, Failure>) -> Step {
    var step = decide(event, completing: false)
    step.teardown = releaseInputs()
    return step
  }

  /// Sends `event` now, in a turn the caller begins, or queues it behind the turn in progress; `completing`: the
  /// result completes after it.
  @inlinable
  mutating func decide(_ event: Event<Output, Failure>, completing: Bool) -> Step {
    var step = Step()
    if isDelivering {
      queued.append(event)
    } else {
      isDelivering = true
      step.delivery = event
      step.observer = observer
    }
    if event.isTerminating { isClosed = true }
    if completing {
      step.teardown = finish(.completed).teardown
    }
    step.flow = isClosed ? .stop : .proceed
    return step
  }

  /// Forgets both input subscriptions, to be disposed, and every waiting value.
  @inlinable
  mutating func releaseInputs() -> ZipTeardown? {
    left.removeAll()
    right.removeAll()
    let subscriptions = [leftSubscription.take(), rightSubscription.take()].compactMap { $0 }
    return subscriptions.isEmpty ? nil : ZipTeardown(disposing: subscriptions)
  }
}

/// What a `zip(with:)` that ends must do once its lock is released: dispose input subscriptions, release the
/// observer. A class, so that the step of every value carries one null reference instead of this.
@usableFromInline
final class ZipTeardown: Sendable {
  @usableFromInline let disposables: [any Disposable]
  @usableFromInline let release: Unmanaged<RawObserverBox>?

  @inlinable
  init(disposing disposable: any Disposable) {
    disposables = [disposable]
    release = nil
  }

  @inlinable
  init(disposing disposables: [any Disposable]) {
    self.disposables = disposables
    release = nil
  }

  /// Releases `observer` after what `earlier` does.
  @inlinable
  init(releasing observer: Unmanaged<RawObserverBox>, after earlier: ZipTeardown?) {
    disposables = earlier?.disposables ?? []
    release = observer
  }

  @inlinable
  func perform() {
    for disposable in disposables { disposable.dispose() }
    release?.release()
  }
}

/// A FIFO of one input's waiting values: the first inline, the others in a ring, which is touched only while the
/// input runs more than one value ahead of its partner.
@usableFromInline
struct PairQueue<Value> {
  @usableFromInline var head: Value?
  @usableFromInline var rest = Ring<Value>()

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { head == nil }

  @inlinable
  mutating func append(_ value: Value) {
    if head == nil { head = value } else { rest.append(value) }
  }

  /// Removes the first value, which must exist.
  @inlinable
  mutating func removeFirst() -> Value {
    let value = head.take().unsafelyUnwrapped
    if !rest.isEmpty { head = rest.popFirst() }
    return value
  }

  @inlinable
  mutating func removeAll() {
    head = nil
    rest.removeAll()
  }
}

extension PairQueue: Sendable where Value: Sendable {}

/// Owns the lock of a `zip(with:)` subscription, delivers with it released, and is the subscription's disposable.
@usableFromInline
final class ZipPairStorage<First: Sendable, Second: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  typealias State = ZipPairState<First, Second, Failure>

  @usableFromInline
  let state: LockedState<State>  // guards all mutable state of the operator

  @inlinable
  init(_ observer: Observer<(First, Second), Failure>) {
    state = LockedState(State(observer: observer), spinning: true)  // each input may send from a thread of its own
  }

  @inlinable
  deinit {
    // Reached with the observer still held only when the subscription never ended (it was neither disposed nor
    // completed, and its inputs let go of it): no turn can be in progress.
    state.withLock { $0.observer.take() }?.release()
  }

  @usableFromInline
  var isDisposed: Bool { state.withLock { $0.isClosed } }

  @inlinable
  func dispose() {
    state.withLock { $0.stop() }.teardown?.perform()
  }

  /// Subscribes to `first`, then to `second` unless the result has ended meanwhile.
  @inlinable
  static func attach(
    _ first: Signal<First, Failure>, _ second: Signal<Second, Failure>, observer: Observer<(First, Second), Failure>
  ) -> any Disposable {
    let storage = ZipPairStorage(observer)
    // Each raw observer captures the storage alone, which serves as its closure context: nothing is allocated.
    let left = first.attach(Observer(raw: { kind, payload in storage.received(kind, payload, left: true) }))
    if storage.run(storage.state.withLock { $0.attached(left, left: true) }) == .proceed {
      let right = second.attach(Observer(raw: { kind, payload in storage.received(kind, payload, left: false) }))
      storage.run(storage.state.withLock { $0.attached(right, left: false) })
    }
    return storage
  }

  @inlinable
  func received(_ kind: EventKind, _ payload: UnsafeRawPointer?, left isLeft: Bool) -> Flow {
    switch kind {
    case .next:
      if isLeft {
        let value = payload.unsafelyUnwrapped.assumingMemoryBound(to: First.self).pointee
        return run(state.withLock { $0.receivedLeft(value) })
      }
      let value = payload.unsafelyUnwrapped.assumingMemoryBound(to: Second.self).pointee
      return run(state.withLock { $0.receivedRight(value) })
    case .error:
      let error = payload.unsafelyUnwrapped.assumingMemoryBound(to: Failure.self).pointee
      return run(state.withLock { $0.failed(error) })
    case .completed:
      return run(state.withLock { $0.completed(left: isLeft) })
    }
  }

  /// Carries out `step` with the lock released: its disposals, then, if it began a turn, every event of that turn.
  ///
  /// - Returns: the answer for the input that sent.
  @inlinable
  @discardableResult
  func run(_ step: State.Step) -> Flow {
    step.teardown?.perform()
    var flow = step.flow
    var next = step
    while let event = next.delivery, let observer = next.observer {
      let answer = observer._withUnsafeGuaranteedRef { box in
        switch event {
        case .next(let pair): return withUnsafePointer(to: pair) { box.raw(.next, UnsafeRawPointer($0)) }
        case .error(let error): return withUnsafePointer(to: error) { box.raw(.error, UnsafeRawPointer($0)) }
        case .completed: return box.raw(.completed, nil)
        }
      }
      next = state.withLock { $0.delivered(event, flow: answer) }
      next.teardown?.perform()
      if next.flow == .stop { flow = .stop }
    }
    return flow
  }
}
