import AsyncSignals

/// A cold signal that sends `values` and then `end`, synchronously on each subscription, and counts its
/// subscriptions and the disposals of their cleanups.
final class SyncSource<Value: Sendable, Failure: Error>: Sendable {
  let subscriptions = Locked(0)
  let disposals = Locked(0)
  let signal: Signal<Value, Failure>

  init(_ values: [Value], then end: Event<Value, Failure>? = .completed) {
    let subscriptions = self.subscriptions
    let disposals = self.disposals
    signal = Signal.create { subscriber in
      subscriptions.increment()
      for value in values { subscriber.sendNext(value) }
      if let end { subscriber.send(end) }
      return ActionDisposable { disposals.increment() }
    }
  }
}

/// A signal whose subscriber a test can drive, and which sends back into itself on request: the shape of
/// guarantee 6 (a handler that sends into the signal it observes).
final class LoopbackSource<Value: Sendable, Failure: Error>: Sendable {
  private let subscriberBox = Locked<(any Subscriber<Value, Failure>)?>(nil)
  let signal: Signal<Value, Failure>

  init() {
    let box = subscriberBox
    signal = Signal.create { subscriber in
      box.value = subscriber
      return nil
    }
  }

  func sendNext(_ value: Value) { subscriberBox.value?.sendNext(value) }
  func sendCompleted() { subscriberBox.value?.sendCompleted() }
  func sendError(_ error: Failure) { subscriberBox.value?.sendError(error) }
}
