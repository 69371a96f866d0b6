import AsyncSignals

/// Subscribes to a signal and records its events, in order, from any thread.
final class EventRecorder<Value: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
  // guarded by: the `Locked` boxes.
  private let recorded = Locked<[Event<Value, Failure>]>([])
  private let subscriptionBox = Locked<(any Disposable)?>(nil)

  init() {}

  /// Subscribes a new recorder to `signal`.
  convenience init(_ signal: Signal<Value, Failure>) {
    self.init()
    subscriptionBox.value = signal.subscribe(self)
  }

  var subscription: any Disposable { subscriptionBox.value! }

  var events: [Event<Value, Failure>] { recorded.value }
  var values: [Value] { events.compactMap(\.value) }
  var errors: [Failure] { events.compactMap(\.failure) }
  var isCompleted: Bool { events.last?.isCompleted ?? false }
  var isTerminated: Bool { events.last?.isTerminating ?? false }
  var didFail: Bool { !errors.isEmpty }

  func sendNext(_ value: Value) { recorded.append(.next(value)) }
  func sendError(_ error: Failure) { recorded.append(.error(error)) }
  func sendCompleted() { recorded.append(.completed) }
  func dispose() { subscription.dispose() }
}
