import AsyncSignals

/// The subscriber a `Signal.async` body receives: it sends to the subscription, and its `send(_:)` waits while a
/// bounded consumer has no room.
///
/// `sendNext(_:)`, `sendError(_:)` and `sendCompleted()` deliver at once, as any subscriber's do, from whatever task or
/// thread calls them; events are delivered one at a time (guarantee 1), and whatever is sent after the subscription
/// has ended (it was disposed, or the signal terminated) is ignored. ``send(_:)`` is the one for async code: under a
/// consumer that bounds its buffer (`values(bufferingPolicy: .bounded(n))`, with every operator on the way carrying
/// the pause) it suspends while the consumer is full, and resumes once the consumer has taken its buffer down to half,
/// when the consumer ends, or when the task is cancelled. Everywhere else it sends at once.
///
/// Subscribing it to another signal (`other.subscribe(subscriber)`) forwards that signal's events and ties that
/// subscription to this one: disposing this subscription disposes it. Forwarded values never wait: to keep the bound,
/// read the other signal with `for await` and `send(_:)` each value.
///
/// ```swift
/// let pages = Signal<Page, APIError>.async { subscriber throws(APIError) in
///   var cursor: Cursor? = nil
///   repeat {
///     let page = try await api.page(after: cursor)
///     await subscriber.send(page)  // waits while a bounded loop is full
///     cursor = page.next
///   } while cursor != nil && !Task.isCancelled
/// }
/// for try await page in pages.values(bufferingPolicy: .bounded(2)) { show(page) }
/// ```
///
/// A concrete type, not `any Subscriber`, so that `send(_:)` is inlined where the body calls it: while there is room it
/// is one atomic load and a `sendNext(_:)`, with no async call to make (Benchmarks README, issue 29, item 5).
///
/// - Note: The subscriber of ReactiveCocoa 2.5's `+createSignal:` block, for an async body; `send(_:)` has no RAC
///   counterpart (RAC has no flow control). Like `AsyncStream.Continuation` and swift-async-algorithms'
///   `AsyncChannel.send(_:)`.
public struct AsyncSubscriber<Value: Sendable, Failure: Error>: Subscriber {
  /// The subscription's own subscriber (the sink of `create`).
  @usableFromInline let base: any Subscriber<Value, Failure>
  /// The room of the bounded consumer at the end of the chain; `nil` where nothing bounds the chain.
  @usableFromInline let demand: Demand?

  init(_ base: any Subscriber<Value, Failure>, demand: Demand?) {
    self.base = base
    self.demand = demand
  }

  /// Sends `value` at once, whether or not the consumer has room: a bounded consumer buffers the excess and counts
  /// it (`overflowCount`).
  ///
  /// ```swift
  /// Signal<Int, Never>.async { subscriber in subscriber.sendNext(1) }
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber sendNext:]`.
  @inlinable
  public func sendNext(_ value: Value) {
    base.sendNext(value)
  }

  /// Fails the subscription with `error`. A body can throw it instead: the signal fails with the thrown error.
  ///
  /// ```swift
  /// Signal<Int, APIError>.async { subscriber throws(APIError) in
  ///   subscriber.sendError(APIError())  // the same as `throw APIError()`
  /// }
  /// ```
  ///
  /// - Parameter error: The failure.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber sendError:]`.
  @inlinable
  public func sendError(_ error: Failure) {
    base.sendError(error)
  }

  /// Completes the subscription. A body need not: the signal completes when the body returns.
  ///
  /// ```swift
  /// Signal<Int, Never>.async { subscriber in
  ///   await subscriber.send(1)
  ///   subscriber.sendCompleted()  // the same as returning
  /// }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber sendCompleted]`.
  @inlinable
  public func sendCompleted() {
    base.sendCompleted()
  }

  /// Keeps `disposable`, a subscription made with this subscriber, with this subscription: disposing this one
  /// disposes it; it is forgotten once disposed.
  ///
  /// ```swift
  /// Signal<Int, Never>.async { subscriber in
  ///   ticks.subscribe(subscriber)  // calls didSubscribe(with:): ends with this subscription
  /// }
  /// ```
  ///
  /// - Parameter disposable: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber didSubscribeWithDisposable:]`.
  public func didSubscribe(with disposable: any Disposable) {
    base.didSubscribe(with: disposable)
  }

  /// Sends `value` once the consumer has room: suspends while a bounded consumer at the end of the chain is full.
  ///
  /// Resumes when the consumer has taken its buffer down to half, when it ends, or when the task is cancelled (the
  /// value is then sent, and ignored if the subscription has ended). Where nothing bounds the chain, or an operator
  /// on the way does not carry the pause, it sends at once. It runs in the caller's isolation
  /// (`nonisolated(nonsending)`).
  ///
  /// ```swift
  /// let lines = Signal<String, Never>.async { subscriber in
  ///   for line in ["a", "b", "c"] {
  ///     await subscriber.send(line)  // waits while the bounded loop below is two lines behind
  ///   }
  /// }
  /// for await line in lines.values(bufferingPolicy: .bounded(2)) { print(line) }
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Note: No counterpart in ReactiveCocoa 2.5, which has no flow control; swift-async-algorithms'
  ///   `AsyncChannel.send(_:)` suspends the same way.
  @inlinable
  public nonisolated(nonsending) func send(_ value: Value) async {
    // Room (the usual case): one atomic load, inlined into the body, with no async call whose frame the task would
    // allocate.
    if let demand, !demand.hasRoom { await demand.room() }
    base.sendNext(value)
  }
}
