/// The state of one `bind` subscription. Pure: no locks, no callouts.
@usableFromInline
struct BindState<Output: Sendable, Failure: Error>: SourceOperatorState, Sendable {
  @usableFromInline
  var outbox: Outbox<Output, Failure>
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sourceEnded = false
  @usableFromInline
  var inners = InnerSubscriptions()

  @inlinable
  init(_ observer: Observer<Output, Failure>) {
    outbox = Outbox(observer)
  }

  /// Admits a new inner subscription, unless the binding has finished.
  @inlinable
  mutating func admit(_ inner: InnerSubscription) -> Bool {
    guard !outbox.isClosed else { return false }
    inners.insert(inner)
    return true
  }

  /// The source completed, or the step ended the binding.
  @inlinable
  mutating func sourceFinished() -> Teardown<Output, Failure> {
    sourceEnded = true
    source = nil
    return inners.isEmpty ? finish(.completed) : Teardown()
  }

  @inlinable
  mutating func innerCompleted(_ inner: InnerSubscription) -> Teardown<Output, Failure> {
    inners.remove(inner)
    return inners.isEmpty && sourceEnded ? finish(.completed) : Teardown()
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Output, Failure> {
    var teardown = Teardown<Output, Failure>()
    teardown.dispose(source)
    source = nil
    sourceEnded = true
    inners.removeAll(into: &teardown)
    return teardown
  }
}

/// Performs `bind`: owns the lock, calls the step and subscribes to the signals it returns.
@usableFromInline
final class BindStorage<Value: Sendable, Output: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  typealias Step = (Value, inout Bool) -> Signal<Output, Failure>?

  @usableFromInline
  let state: LockedState<BindState<Output, Failure>>  // guards every decision of the operator

  @inlinable
  init(observer: Observer<Output, Failure>) {
    self.state = LockedState(BindState(observer))
  }

  @inlinable
  static func attach(
    source: Signal<Value, Failure>, step: sending @escaping Step, observer: Observer<Output, Failure>
  ) -> any Disposable {
    let storage = BindStorage(observer: observer)
    // The step lives in the source observer, which calls it one value at a time, and not in the storage, which
    // the user's disposable keeps alive: it is released with that observer when the source subscription ends
    // (guarantee 8).
    let step = ObserverState(step)
    // `Observer(raw:)` capturing the storage directly: one closure context, where `attach { … }` makes two.
    let subscription = source.attach(
      Observer(raw: { kind, payload in storage.receivedFromSource(Event(kind, payload), step: step) }))
    storage.state.handle { $0.attachedSource(subscription) }
    return storage
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }

  @inlinable
  func receivedFromSource(_ event: Event<Value, Failure>, step: ObserverState<Step>) -> Flow {
    switch event {
    case .next(let value):
      var stop = false
      guard let signal = step.value(value, &stop) else {
        state.handle { $0.sourceFinished() }
        return .stop
      }
      let open = subscribe(to: signal)
      guard open, !stop else {
        if stop { state.handle { $0.sourceFinished() } }
        return .stop
      }
      return .proceed
    case .error(let error):
      state.handle { $0.finish(.error(error)) }
      return .stop
    case .completed:
      state.handle { $0.sourceFinished() }
      return .stop
    }
  }

  /// Subscribes to a spliced signal; returns whether the binding is still open.
  @inlinable
  func subscribe(to signal: Signal<Output, Failure>) -> Bool {
    if let value = signal.valueSentAtOnce() {
      // `return`'s signal, subscribed where it would send at once and complete: its value is spliced in as the
      // inner subscription would deliver it, without making one (`flattenMap { .return(…) }` is common). Open or
      // not is read after the delivery, as below after `attach`: a downstream that stopped at this value stops
      // the source at it (`update` answers from before its delivery).
      // Delivered as the inner's subscription would have: in a task, with the subscription scheduler current.
      _ = CurrentScheduler.subscribeAtOnce { state.update { $0.outbox.send(.next(value)) } }
      return !state.isClosed
    }
    let inner = InnerRecord(storage: self)
    guard state.withLock({ $0.admit(inner) }) else { return false }
    // The observer captures the inner record alone, which knows the storage: a closure capturing one reference
    // needs no context of its own (see `attach(source:step:observer:)`), so the record is the one allocation.
    let subscription = signal.attach(
      Observer(raw: { kind, payload in inner.storage.received(Event(kind, payload), from: inner) }))
    // Recorded without a `Teardown`, whose array would cost an allocation per spliced signal: one that has
    // already ended (as `return` has) is no longer a member, and its disposable is disposed here. Nothing is
    // queued by this step, so there is nothing to deliver.
    let (attached, open) = state.withLock { state in
      (state.inners.attached(inner, subscription), !state.outbox.isClosed)
    }
    if !attached { subscription.dispose() }
    return open
  }

  @inlinable
  func received(_ event: Event<Output, Failure>, from inner: InnerSubscription) -> Flow {
    switch event {
    case .next(let value): state.update { $0.outbox.send(.next(value)) }
    case .error(let error): state.handle { $0.finish(.error(error)) }
    case .completed: state.handle { $0.innerCompleted(inner) }
    }
  }
}
