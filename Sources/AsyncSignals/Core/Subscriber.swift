/// Receives the events of a signal.
///
/// A signal calls its subscriber's methods one at a time, never concurrently (guarantee 1), and calls
/// nothing after `sendError` or `sendCompleted` (guarantee 2). The subscriber handed to a
/// ``Signal/create(_:)`` body may itself be called from any thread: it serialises the calls, making a
/// sender on another thread wait until the event in progress has been handled, as RAC does.
///
/// Implement it to receive events in an object of your own; most code uses the `subscribeNext…` methods
/// instead.
///
/// ```swift
/// final class Printer: Subscriber {
///   func sendNext(_ value: Int) { print(value) }
///   func sendError(_ error: Never) {}
///   func sendCompleted() { print("done") }
/// }
/// Signal<Int, Never>.return(1).subscribe(Printer())  // 1, done
/// ```
///
/// - Note: ReactiveCocoa 2.5 `<RACSubscriber>` (`-sendNext:`, `-sendError:`, `-sendCompleted`,
///   `-didSubscribeWithDisposable:`). RAC's block subscriber and passthrough wrapper are internal here.
public protocol Subscriber<Value, Failure>: Sendable {
  /// The type of the values received.
  ///
  /// ```swift
  /// func send<S: Subscriber>(_ values: [S.Value], to subscriber: S) {
  ///   for value in values { subscriber.sendNext(value) }
  /// }
  /// ```
  associatedtype Value: Sendable
  /// The type of the failure received.
  ///
  /// ```swift
  /// func fail<S: Subscriber>(_ subscriber: S, with error: S.Failure) {
  ///   subscriber.sendError(error)
  /// }
  /// ```
  associatedtype Failure: Error

  /// Receives a value.
  ///
  /// ```swift
  /// subscriber.sendNext(42)
  /// ```
  func sendNext(_ value: Value)

  /// Receives the failure that terminates the signal.
  ///
  /// ```swift
  /// subscriber.sendError(.notFound)
  /// ```
  func sendError(_ error: Failure)

  /// Receives the successful completion of the signal.
  ///
  /// ```swift
  /// subscriber.sendCompleted()
  /// ```
  func sendCompleted()

  /// Receives the disposable of a subscription made with this subscriber, before any of its events.
  ///
  /// Disposing it ends that subscription. The default implementation ignores it.
  ///
  /// ```swift
  /// func didSubscribe(with disposable: any Disposable) {
  ///   subscription.inner = disposable  // to end the subscription from elsewhere
  /// }
  /// ```
  ///
  /// - Parameter disposable: The subscription's disposable.
  func didSubscribe(with disposable: any Disposable)

  /// Receives a value once the consumer has room for it: ``sendNext(_:)`` for async code under flow control.
  ///
  /// `AsyncSubscriber`, the subscriber that a `Signal.async` body (or an `AsyncSequence`'s `signal`) receives,
  /// suspends here while a bounded consumer at the end of the chain — `values(bufferingPolicy: .bounded(n))` — is
  /// full, and resumes when the consumer has taken its buffer down to half, when the consumer ends, or when the task
  /// is cancelled (the value is then sent, and ignored if the subscription has ended). Where nothing bounds the chain,
  /// or an operator on the way does not carry the pause, it sends at once. The default implementation, which every
  /// other subscriber has, sends at once.
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
  nonisolated(nonsending) func send(_ value: Value) async
}

extension Subscriber {
  /// Sends `value` at once: a subscriber that knows no consumer's room never waits.
  ///
  /// ```swift
  /// struct Printer: Subscriber {  // no send(_:) of its own: this one sends at once
  ///   func sendNext(_ value: Int) { print(value) }
  ///   func sendError(_ error: Never) {}
  ///   func sendCompleted() {}
  /// }
  /// await Printer().send(1)  // prints 1 at once
  /// ```
  ///
  /// - Parameter value: The value.
  public nonisolated(nonsending) func send(_ value: Value) async {
    sendNext(value)
  }

  /// Ignores the disposable.
  ///
  /// ```swift
  /// struct Printer: Subscriber {  // no didSubscribe(with:) of its own: this one ignores the disposable
  ///   func sendNext(_ value: Int) { print(value) }
  ///   func sendError(_ error: Never) {}
  ///   func sendCompleted() {}
  /// }
  /// ```
  public func didSubscribe(with disposable: any Disposable) {}

  /// Sends `event` through the matching `send…` method.
  ///
  /// ```swift
  /// subscriber.send(.next(1))
  /// subscriber.send(.completed)
  /// ```
  ///
  /// - Parameter event: The event to send.
  @inlinable
  public func send(_ event: Event<Value, Failure>) {
    switch event {
    case .next(let value): sendNext(value)
    case .error(let error): sendError(error)
    case .completed: sendCompleted()
    }
  }
}
