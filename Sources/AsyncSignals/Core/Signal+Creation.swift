extension Signal {
  /// Creates a cold signal whose `body` runs once for each subscription.
  ///
  /// The body receives the subscription's subscriber and returns the disposable that cleans up after it, or
  /// `nil`. It runs at once when a scheduler is current (inside a scheduler's block, or on the main queue) and
  /// when the caller runs in a task or an actor's isolation; otherwise it is scheduled on a background
  /// scheduler, so that ``Schedulers/current`` is never `nil` inside it (guarantee 5). The subscriber may be
  /// called from any thread: events are delivered one at a time, and a sender on another thread waits for the
  /// event in progress (guarantee 1). After the first `sendError` or `sendCompleted`, or once the subscription is
  /// disposed, further sends are ignored (guarantee 2) and the cleanup runs — at once, or as soon as the body
  /// returns it.
  ///
  /// A body that blocks (a semaphore, a synchronous network or file call) blocks the thread that subscribes: in
  /// a task, one of the few threads of Swift's cooperative pool, and a few such subscriptions can stall every
  /// task. Move it off the caller with ``subscribe(on:)``, as RAC's subscription scheduler did:
  /// `readFileBlocking(path).subscribe(on: QueueScheduler(name: "reader"))`.
  ///
  /// ```swift
  /// let numbers = Signal<Int, Never>.create { subscriber in
  ///   subscriber.sendNext(1)
  ///   subscriber.sendNext(2)
  ///   subscriber.sendCompleted()
  ///   return ActionDisposable { print("disposed") }
  /// }
  /// numbers.subscribeNext { print($0) }  // 1, 2, disposed
  /// ```
  ///
  /// The subscriber is released when the subscription ends and the body's work lets go of it.
  ///
  /// - Parameter body: The work of one subscription.
  /// - Returns: A cold signal.
  /// - Note: ReactiveCocoa 2.5 `+createSignal:`.
  @inlinable  // specialised in the caller: no generic metadata or witness table looked up per subscription
  public static func create(
    _ body: @escaping @Sendable (any Subscriber<Value, Failure>) -> (any Disposable)?
  ) -> Signal<Value, Failure> {
    CreateSignal { (observer: consuming ObserverBox) in
      let sink = Sink<Value, Failure>.make(boxed: observer)
      if CurrentScheduler.subscribeAtOnce({ sink.run(body) }) == nil { sink.runOnBackgroundScheduler(body) }
      return sink
    }
  }

  /// `create(_:)` whose body also receives the demand of a bounded consumer at the end of the chain, if any (see
  /// `Demand`): for the Interop module's async bodies, whose `send(_:)` suspends while it is full.
  package static func create(
    withDemand body: @escaping @Sendable (any Subscriber<Value, Failure>, Demand?) -> (any Disposable)?
  ) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      let demand = observer.demand
      return create { subscriber in body(subscriber, demand) }.attach(observer)
    }
  }

  /// A signal that sends `value` and then completes, on each subscription.
  ///
  /// Delivery follows the same scheduling rule as ``create(_:)``.
  ///
  /// ```swift
  /// Signal<Int, Never>.return(42).subscribeNext { print($0) }  // 42
  /// ```
  ///
  /// - Parameter value: The one value.
  /// - Note: ReactiveCocoa 2.5 `+return:`.
  @inlinable
  public static func `return`(_ value: Value) -> Signal<Value, Failure> {
    // Inlinable so that the signal's type is concrete where it is made: no generic metadata lookup per call.
    ReturnSignal(value)
  }

  /// A signal that completes at once, on each subscription.
  ///
  /// ```swift
  /// Signal<Int, Never>.empty.subscribeCompleted { print("done") }  // done
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `+empty`.
  public static var empty: Signal<Value, Failure> {
    SynchronousSignal { observer in _ = observer.sendCompleted() }
  }

  /// A signal that fails with `error` at once, on each subscription.
  ///
  /// ```swift
  /// Signal<Int, URLError>.error(URLError(.timedOut)).subscribeError { print($0.code) }
  /// ```
  ///
  /// - Parameter error: The failure.
  /// - Note: ReactiveCocoa 2.5 `+error:`.
  public static func error(_ error: Failure) -> Signal<Value, Failure> {
    SynchronousSignal { observer in _ = observer.sendError(error) }
  }

  /// A signal that never sends anything and never ends.
  ///
  /// Its subscriptions hold on to nothing; disposing them only marks them disposed.
  ///
  /// ```swift
  /// let pending = Signal<Int, Never>.never.subscribeNext { print($0) }  // prints nothing, ever
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `+never`.
  public static var never: Signal<Value, Failure> {
    AnonymousSignal { _ in ActionDisposable() }
  }

  /// A signal that calls `makeSignal` at each subscription and subscribes to the signal it returns.
  ///
  /// `makeSignal` runs under the same scheduling rule as a ``create(_:)`` body.
  ///
  /// ```swift
  /// let now = Signal<Date, Never>.defer { .return(Date()) }  // the date of each subscription
  /// ```
  ///
  /// - Parameter makeSignal: Called once per subscription.
  /// - Note: ReactiveCocoa 2.5 `+defer:`.
  public static func `defer`(_ makeSignal: @escaping @Sendable () -> Signal<Value, Failure>) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      attachOnSubscriptionScheduler(observer) { observer in makeSignal().attach(observer) }
    }
  }

  /// Runs `attach` now if a scheduler is current, otherwise on the background scheduler (guarantee 5).
  @usableFromInline
  static func attachOnSubscriptionScheduler(
    _ observer: Observer<Value, Failure>,
    _ attach: @escaping @Sendable (Observer<Value, Failure>) -> any Disposable
  ) -> any Disposable {
    if let subscription = CurrentScheduler.subscribeAtOnce({ attach(observer) }) { return subscription }
    let subscription = CompoundDisposable()
    let guarded = Observer<Value, Failure>(
      raw: { kind, payload in subscription.isDisposed ? .stop : observer.raw(kind, payload) },
      demand: observer.demand)  // events pass on the sending thread: the pause is carried
    subscription.add(QueueScheduler.background.schedule { subscription.add(attach(guarded)) })
    return subscription
  }
}

/// `create`'s signal: each subscription is a sink that runs the body. The sink keeps the observer's box, so a
/// subscriber's closures boxed by `subscribeNext` go into it as they are (see `SubscriberBox`).
@usableFromInline
final class CreateSignal<Value: Sendable, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
  // guarded by: immutability (`subscribe` is a `let`).
  /// Makes the sink that delivers to a boxed observer, and runs the body. Made by `create(_:)` where the types are
  /// concrete: no generic metadata is looked up per subscription.
  @usableFromInline
  let subscribe: @Sendable (consuming ObserverBox) -> any Disposable

  @inlinable
  init(_ subscribe: @escaping @Sendable (consuming ObserverBox) -> any Disposable) {
    self.subscribe = subscribe
    super.init(name: "")
  }

  // Inlinable, so that where the signal is made and subscribed in one function, the optimiser sees through the
  // subscription to the body, and calls the sink directly rather than through `any Subscriber`.
  @inlinable
  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    subscribe(RawObserverBox(observer.raw))
  }

  @inlinable
  override var attachesSubscriberBoxes: Bool {
    true
  }

  @inlinable
  override func attach(boxed box: consuming SubscriberBox) -> any Disposable {
    subscribe(box)
  }
}

/// A signal whose body delivers all its events synchronously (`return`, `empty`, `error`, `from(_:)`): when a
/// scheduler is current it needs neither a sink nor a disposable of its own.
@usableFromInline
final class SynchronousSignal<Value: Sendable, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
  // guarded by: immutability (`body` is a `let`).
  private let body: @Sendable (Observer<Value, Failure>) -> Void

  init(_ body: @escaping @Sendable (Observer<Value, Failure>) -> Void) {
    self.body = body
    super.init(name: "")
  }

  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    Self.attachSynchronous(observer, body)
  }

  /// Runs `body`, which sends all its events before returning, for `observer`, following guarantee 5: at once
  /// where a subscription may run synchronously, with nothing to dispose afterwards; otherwise later, on the
  /// background scheduler, through a sink that the returned disposable disposes.
  @usableFromInline
  static func attachSynchronous(
    _ observer: Observer<Value, Failure>, _ body: @escaping @Sendable (Observer<Value, Failure>) -> Void
  ) -> any Disposable {
    if CurrentScheduler.subscribeAtOnce({ body(observer) }) != nil {
      return DisposedDisposable.shared
    }
    let sink = Sink.make(observer)
    if let scheduled = QueueScheduler.background.schedule({
      body(
        Observer(raw: { kind, payload in
          sink.deliver(kind, payload)
          return sink.isDisposed ? .stop : .proceed
        }))
    }) {
      sink.addChild(scheduled)
    }
    return sink
  }
}

/// `return`'s signal. The value is a stored property rather than a closure's capture: one allocation per
/// signal instead of two, which counts where a signal is made per value (`flattenMap { .return($0) }`).
@usableFromInline
final class ReturnSignal<Value: Sendable, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
  // guarded by: immutability (`value` is a `let`).
  @usableFromInline let value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
    super.init(name: "")
  }

  override func sentAtOnce(next: (Value) -> Void, completed: () -> Void) -> Bool {
    let sent: Void? = CurrentScheduler.subscribeAtOnce {
      next(value)
      completed()
    }
    return sent != nil
  }

  override func valueSentAtOnce() -> Value? {
    CurrentScheduler.isSet || CurrentScheduler.isInTask ? value : nil
  }

  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    let value = self.value
    // At once where a body would run at once, with the subscription scheduler current in a task (guarantee 5).
    let sent: Void? = CurrentScheduler.subscribeAtOnce {
      if observer.sendNext(value) == .proceed { _ = observer.sendCompleted() }
    }
    if sent != nil { return DisposedDisposable.shared }
    return SynchronousSignal { observer in
      if observer.sendNext(value) == .proceed { _ = observer.sendCompleted() }
    }.attach(observer)
  }
}
