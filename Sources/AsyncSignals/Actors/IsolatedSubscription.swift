/// A subscription whose callbacks run in an actor's isolation with a bound on the values waiting for the actor: what
/// `subscribeNext(isolatedTo:bufferingPolicy:…)`, `bind(isolatedTo:bufferingPolicy:_:)`,
/// `bind(onMainActorTo:keyPath:bufferingPolicy:)` and the main-actor forms return.
///
/// It disposes like any subscription, and says what its ``bufferingPolicy`` did: how many values went past a
/// ``SignalBufferingPolicy/bounded(_:)`` bound because their sender could not pause (``overflowCount``), how many a
/// dropping policy dropped (``droppedCount``), and the most values that waited for the actor at once
/// (``highWaterMark``). The figures stay readable after the subscription has ended.
///
/// ```swift
/// actor Store {
///   var records: [Record] = []
///   func follow(_ feed: Signal<Record, Never>) -> IsolatedSubscription {
///     feed.subscribeNext(isolatedTo: self, bufferingPolicy: .bounded(64)) { store, record in
///       store.records.append(record)
///     }
///   }
/// }
/// let store = Store()
/// let subscription = await store.follow(parser.records)
/// print(subscription.overflowCount)  // values a sender that could not pause put past the 64
/// ```
///
/// - Note: ReactiveCocoa 2.5 has no bound on delivery (`-deliverOn:` queues every value); the counts follow
///   `SignalSequence`'s.
public final class IsolatedSubscription: Disposable {
  /// How the values waiting for the actor are bounded.
  ///
  /// ```swift
  /// let subscription = parser.records.subscribeNext(isolatedTo: library, bufferingPolicy: .bounded(64)) { _, _ in }
  /// print(subscription.bufferingPolicy)  // bounded(64)
  /// ```
  public let bufferingPolicy: SignalBufferingPolicy
  @usableFromInline let bound: DeliveryBound?
  @usableFromInline let subscription: any Disposable

  @inlinable
  init(_ subscription: any Disposable, bufferingPolicy: SignalBufferingPolicy, bound: DeliveryBound?) {
    self.subscription = subscription
    self.bufferingPolicy = bufferingPolicy
    self.bound = bound
  }

  /// How many values were queued for the actor beyond a ``SignalBufferingPolicy/bounded(_:)`` limit because their
  /// sender could not pause (a subject's `sendNext`, a `create` body, an operator that does not carry the pause);
  /// always `0` with the other policies. Nothing was lost: the figure says how far past the bound the queue went.
  /// What the stages of the chain hold by design though their sources paused (32 values per `deliver(on:)` hop) is
  /// their slack, not overflow. Senders that can pause but send at the same instant from several threads (tasks
  /// each calling a subject's `await send(_:)`) may each find room as the bound closes, and put a value past it:
  /// those are counted too.
  ///
  /// ```swift
  /// let ticks = Subject<Int, Never>()
  /// let subscription = ticks.subscribeNext(isolatedTo: library, bufferingPolicy: .bounded(8)) { _, _ in }
  /// for tick in 1...100 { ticks.sendNext(tick) }  // a subject's sendNext: it cannot pause
  /// print(subscription.overflowCount)  // up to 92, fewer if the library kept up
  /// ```
  public var overflowCount: Int {
    bound?.overflows.load(ordering: .relaxed) ?? 0
  }

  /// How many values a ``SignalBufferingPolicy/bufferingNewest(_:)`` or ``SignalBufferingPolicy/bufferingOldest(_:)``
  /// policy dropped because the actor had not taken the ones waiting; always `0` with the other policies.
  ///
  /// ```swift
  /// actor Gauge { var price = 0.0 }
  /// let gauge = Gauge()
  /// let subscription = prices.subscribeNext(isolatedTo: gauge, bufferingPolicy: .bufferingNewest(1)) {
  ///   gauge, price in gauge.price = price
  /// }
  /// print(subscription.droppedCount)  // stale prices the gauge never saw
  /// ```
  public var droppedCount: Int {
    bound?.drops.load(ordering: .relaxed) ?? 0
  }

  /// The most values that waited for the actor at once so far: with ``SignalBufferingPolicy/bounded(_:)``, counted
  /// from a value's arrival until its callback has run; with a dropping policy, the values queued (at most its
  /// limit). Always `0` with ``SignalBufferingPolicy/unbounded``.
  ///
  /// ```swift
  /// actor Tally { var total = 0 }
  /// let tally = Tally()
  /// let subscription = Signal<Int, Never>.from(1...10_000)
  ///   .subscribeNext(isolatedTo: tally, bufferingPolicy: .bounded(64)) { tally, value in tally.total += value }
  /// print(subscription.highWaterMark)  // 64 at most: the source paused
  /// ```
  public var highWaterMark: Int {
    bound?.highWaterMark.load(ordering: .relaxed) ?? 0
  }

  /// Whether the subscription has ended: disposed, or its signal terminated and delivered.
  ///
  /// ```swift
  /// if !subscription.isDisposed { print("still delivering") }
  /// ```
  public var isDisposed: Bool {
    subscription.isDisposed
  }

  /// Ends the subscription: no callback runs after it returns on the actor; values still waiting are discarded (not
  /// counted as dropped), and the paused sources go on to find the subscription ended.
  ///
  /// ```swift
  /// subscription.dispose()
  /// ```
  public func dispose() {
    subscription.dispose()
  }
}
