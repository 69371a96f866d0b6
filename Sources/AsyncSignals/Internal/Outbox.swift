// The delivery side of every operator with more than one input (zip, merge, bind, combineLatest, …).
//
// Such an operator decides under its state lock what to send (STYLE.md: decide under the lock, act after
// releasing it) and queues the events in its `Outbox`. Whichever thread finds nobody delivering becomes the
// deliverer: it takes the events out one at a time and calls the downstream observer with the lock
// released, until the outbox is empty. A thread that finds a delivery in progress only queues and returns;
// it never waits for the deliverer, so no operator can take part in a lock-order deadlock through its
// downstream (the zip + replay + take(1) shapes of peer libraries). Because the order is fixed under the lock
// and one thread delivers at a time, the downstream sees the decided order, one event at a time (guarantee
// 1), and a send from inside a callback is queued behind the event in progress instead of deadlocking or
// overtaking it (guarantee 6).

/// The queue of events an operator has decided to send, and the observer they go to.
@usableFromInline
struct Outbox<Value, Failure: Error> {
  @usableFromInline var observer: Observer<Value, Failure>?
  @usableFromInline var pending = Ring<Event<Value, Failure>>()
  @usableFromInline var isDelivering = false
  /// Set by a queued terminal event, a `.stop` from downstream, or disposal. Nothing is queued afterwards.
  @usableFromInline var isClosed = false

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    self.observer = observer
  }

  /// Queues `event`; a terminal event closes the outbox. Ignored once it is closed.
  @inlinable
  mutating func send(_ event: Event<Value, Failure>) {
    guard !isClosed else { return }
    if event.isTerminating { isClosed = true }
    pending.append(event)
  }

  /// Closes the outbox and drops what has not been delivered (disposal, or downstream stop). Returns the
  /// observer, to be released once the lock is.
  @inlinable
  mutating func close() -> Observer<Value, Failure>? {
    isClosed = true
    pending.removeAll()
    defer { observer = nil }
    return observer
  }

  /// If nobody is delivering and an event is queued, makes the caller the deliverer of that event.
  @inlinable
  mutating func claim() -> Delivery? {
    guard !isDelivering, let delivery = take() else { return nil }
    isDelivering = true
    return delivery
  }

  /// For the deliverer, after each delivery: the next event, or `nil`, which ends its turn.
  @inlinable
  mutating func next() -> Delivery? {
    if let delivery = take() { return delivery }
    isDelivering = false
    return nil
  }

  @inlinable
  mutating func take() -> Delivery? {
    guard let observer, let event = pending.popFirst() else { return nil }
    if event.isTerminating { self.observer = nil }
    return Delivery(event: event, observer: observer)
  }

  @usableFromInline
  struct Delivery {
    @usableFromInline let event: Event<Value, Failure>
    @usableFromInline let observer: Observer<Value, Failure>

    @inlinable
    init(event: Event<Value, Failure>, observer: Observer<Value, Failure>) {
      self.event = event
      self.observer = observer
    }
  }
}

/// What to do once an operator's lock is released: dispose upstream subscriptions, release the observer.
@usableFromInline
struct Teardown<Value, Failure: Error> {
  @usableFromInline var disposables: [any Disposable] = []
  @usableFromInline var observer: Observer<Value, Failure>?

  @inlinable
  init() {}

  @inlinable
  mutating func dispose(_ disposable: (any Disposable)?) {
    if let disposable { disposables.append(disposable) }
  }

  /// Keeps `disposable` (a subscription or timer whose `attach` or `schedule` has just returned) in `slot`,
  /// unless what it belongs to has already `ended`: then the teardown hands it back, to be disposed.
  @inlinable
  static func keep(
    _ disposable: any Disposable, in slot: inout (any Disposable)?, unlessEnded ended: Bool
  ) -> Teardown {
    var teardown = Teardown()
    if ended { teardown.dispose(disposable) } else { slot = disposable }
    return teardown
  }

  /// Disposes the disposables; the observer is released when the teardown is.
  @inlinable
  func perform() {
    for disposable in disposables { disposable.dispose() }
  }
}

/// The state of a multi-input operator: its decisions, plus the outbox they go to.
@usableFromInline
protocol OperatorState {
  associatedtype Output: Sendable
  associatedtype Failure: Error

  var outbox: Outbox<Output, Failure> { get set }

  /// Forgets every upstream subscription, timer and buffered input; returns what to dispose once the lock is
  /// released. Called when the operator finishes, is stopped by its downstream, or is disposed.
  mutating func releaseUpstreams() -> Teardown<Output, Failure>
}

extension OperatorState {
  /// Whether the operator has finished: a terminal event is queued, or the downstream stopped or disposed it.
  @inlinable
  var isFinished: Bool { outbox.isClosed }

  /// Queues a terminal event, unless the operator has finished, and tears everything down.
  @inlinable
  mutating func finish(_ event: Event<Output, Failure>) -> Teardown<Output, Failure> {
    guard !outbox.isClosed else { return Teardown() }
    outbox.send(event)
    return releaseUpstreams()
  }

  /// The downstream answered `.stop`, or the subscription is being disposed: closes the outbox (dropping what
  /// was not delivered) and tears everything down, the observer included.
  @inlinable
  mutating func stop() -> Teardown<Output, Failure> {
    var teardown = releaseUpstreams()
    teardown.observer = outbox.close()
    return teardown
  }
}

/// The state of an operator with one source subscription (bind, throttle, delay, buffer, timeout, take(until:)).
@usableFromInline
protocol SourceOperatorState: OperatorState {
  /// The source subscription, once `attach` has returned and while it is live.
  var source: (any Disposable)? { get set }
  /// Whether the source has terminated (or the operator no longer wants it).
  var sourceEnded: Bool { get set }
}

extension SourceOperatorState {
  /// Keeps the source subscription that `attach` returned, unless the source or the operator has already
  /// ended — then it is handed back to be disposed.
  @inlinable
  mutating func attachedSource(_ disposable: any Disposable) -> Teardown<Output, Failure> {
    .keep(disposable, in: &source, unlessEnded: outbox.isClosed || sourceEnded)
  }
}

extension LockedState where State: OperatorState {
  /// Applies `input` under the lock, performs the teardown it returns, then delivers what is queued unless
  /// another thread is already delivering.
  ///
  /// - Returns: `.proceed` if the operator was still open after `input`, `.stop` if it has finished: the
  ///   answer an input observer gives its upstream.
  @inlinable
  @discardableResult
  func handle(_ input: (inout State) -> Teardown<State.Output, State.Failure>) -> Flow {
    let (teardown, delivery, flow) = withLock { state in
      let teardown = input(&state)
      return (teardown, state.outbox.claim(), state.outbox.isClosed ? Flow.stop : .proceed)
    }
    teardown.perform()
    if let delivery { drain(delivery) }
    return flow
  }

  /// Applies `input`, which needs no teardown, under the lock, then delivers as `handle(_:)` does.
  @inlinable
  @discardableResult
  func update(_ input: (inout State) -> Void) -> Flow {
    let (delivery, flow) = withLock { state in
      input(&state)
      return (state.outbox.claim(), state.outbox.isClosed ? Flow.stop : .proceed)
    }
    if let delivery { drain(delivery) }
    return flow
  }

  /// Applies `input` under the lock as `handle(_:)` does, and also returns the decision `input` made that the
  /// caller must carry out with the lock released (for example: the next inner signal to subscribe to).
  ///
  /// - Returns: The decision, and the `Flow` answer `handle(_:)` would give.
  @inlinable
  func decide<Decision>(
    _ input: (inout State) -> (Teardown<State.Output, State.Failure>, Decision)
  ) -> (decision: Decision, flow: Flow) {
    let (teardown, decision, delivery, flow) = withLock { state in
      let (teardown, decision) = input(&state)
      return (teardown, decision, state.outbox.claim(), state.outbox.isClosed ? Flow.stop : .proceed)
    }
    teardown.perform()
    if let delivery { drain(delivery) }
    return (decision, flow)
  }

  /// Whether the operator has finished: nothing more will be sent downstream.
  @inlinable
  var isClosed: Bool {
    withLock { $0.outbox.isClosed }
  }

  @inlinable
  func drain(_ first: Outbox<State.Output, State.Failure>.Delivery) {
    var delivery: Outbox<State.Output, State.Failure>.Delivery? = first
    while let current = delivery {
      let flow = current.observer(current.event)
      let stops = flow == .stop && !current.event.isTerminating
      let (teardown, next) = withLock { state in
        (stops ? state.stop() : Teardown(), state.outbox.next())
      }
      teardown.perform()
      delivery = next
    }
  }
}

extension Outbox: Sendable where Value: Sendable {}
extension Outbox.Delivery: Sendable where Value: Sendable {}
extension Teardown: Sendable where Value: Sendable {}
