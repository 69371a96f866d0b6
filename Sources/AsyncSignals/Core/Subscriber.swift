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
}

extension Subscriber {
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
