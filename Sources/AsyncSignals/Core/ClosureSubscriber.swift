/// A subscriber made from closures, which can be attached to several signals.
///
/// Pass it to ``Signal/subscribe(_:)`` of as many signals as you like: it receives their events one at a time,
/// never concurrently (guarantee 1), a sender on another thread waiting for the event in progress, and a send from
/// inside one of its closures delivered at once, nested. The first failure or completion, from any of its signals,
/// ends it: that closure runs, every subscription made with it is disposed, its closures are released, and any
/// later event or subscription is ignored (disposed at once). Disposing it does the same without calling a closure.
/// It forgets a subscription made with it as soon as that subscription is disposed, so it may serve any number of
/// short subscriptions.
///
/// ```swift
/// let logger = ClosureSubscriber<String, Never>(
///   next: { print("log:", $0) }, error: { _ in }, completed: { print("log closed") })
/// requests.subscribe(logger)
/// responses.subscribe(logger)  // one log, both streams, one line at a time
/// ```
///
/// - Note: ReactiveCocoa 2.5 `+[RACSubscriber subscriberWithNext:error:completed:]`; RAC's `RACSubscriber` is
///   also what its `subscribeNext:…` methods attach, as the internal sink is here.
public final class ClosureSubscriber<Value: Sendable, Failure: Error>: Subscriber, Disposable {
  /// The serial-delivery engine of a `create` body's subscriber: RAC's `RACSubscriber` in all but name.
  private let sink: Sink<Value, Failure>

  /// Creates a subscriber that hands values to `next`, the failure to `error` and completion to `completed`.
  ///
  /// ```swift
  /// let printer = ClosureSubscriber<Int, Never>(next: { print($0) }, error: { _ in }, completed: { print("done") })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called with each value, from any of the signals it is attached to.
  ///   - error: Called with the first failure; the subscriber has then ended.
  ///   - completed: Called on the first completion; the subscriber has then ended.
  /// - Note: ReactiveCocoa 2.5 `+subscriberWithNext:error:completed:`.
  public init(
    next: @escaping @Sendable (Value) -> Void, error: @escaping @Sendable (Failure) -> Void,
    completed: @escaping @Sendable () -> Void
  ) {
    sink = Sink.make(boxed: EventSubscriberBox(next: next, error: error, completed: completed))
  }

  /// Calls `next` with `value`, unless the subscriber has ended.
  ///
  /// ```swift
  /// logger.sendNext("started")  // sends from code of your own work too
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber sendNext:]`.
  public func sendNext(_ value: Value) {
    sink.sendNext(value)
  }

  /// Calls `error` with `error` and ends the subscriber, disposing every subscription made with it; ignored once
  /// it has ended.
  ///
  /// ```swift
  /// let log = ClosureSubscriber<String, APIError>(next: { print($0) }, error: { print("failed:", $0) }, completed: {})
  /// log.sendError(APIError())  // prints "failed: …", then ignores everything
  /// ```
  ///
  /// - Parameter error: The failure.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber sendError:]`.
  public func sendError(_ error: Failure) {
    sink.sendError(error)
  }

  /// Calls `completed` and ends the subscriber, disposing every subscription made with it; ignored once it has
  /// ended.
  ///
  /// ```swift
  /// logger.sendCompleted()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber sendCompleted]`.
  public func sendCompleted() {
    sink.sendCompleted()
  }

  /// Keeps `disposable`, a subscription made with this subscriber, to dispose it when the subscriber ends (at once
  /// if it already has); forgets it once it is disposed.
  ///
  /// ``Signal/subscribe(_:)`` calls it; you rarely need to.
  ///
  /// ```swift
  /// requests.subscribe(logger)  // calls logger.didSubscribe(with:) with the subscription's disposable
  /// ```
  ///
  /// - Parameter disposable: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubscriber didSubscribeWithDisposable:]`, which also removed a disposed one.
  public func didSubscribe(with disposable: any Disposable) {
    sink.didSubscribe(with: disposable)
  }

  /// Whether the subscriber has ended: terminated or disposed.
  ///
  /// ```swift
  /// if logger.isDisposed { print("the log is closed") }
  /// ```
  public var isDisposed: Bool {
    sink.isDisposed
  }

  /// Ends the subscriber without calling a closure: every subscription made with it is disposed and its closures
  /// are released.
  ///
  /// ```swift
  /// logger.dispose()  // requests and responses are no longer logged
  /// ```
  ///
  /// - Note: RAC's subscriber kept its disposable private; disposing it did the same.
  public func dispose() {
    sink.dispose()
  }
}
