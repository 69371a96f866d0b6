import AsyncSignals

/// One subscription that the harness sends into from any thread, and disposes.
protocol Channel: Sendable {
  func send(_ event: Event<Int, StressFailure>)
  func dispose()
  /// Once the race is over and the channel disposed: what is left of it (cleanups not run, subscribers
  /// still registered), or `nil` when nothing is.
  var leftover: String? { get }
}

/// The subscriber handed to a `create` body, subscribed to by a recorder.
///
/// The subscriber is fetched once: fetching it per send (through a lock) would order the senders for
/// ThreadSanitizer.
struct CreateChannel: Channel {
  let source = Source<Int>()
  let subscription: any Disposable
  let subscriber: any Subscriber<Int, StressFailure>

  init(_ recorder: Recorder<Int>) {
    let source = self.source
    subscription = immediately { recorder.subscribe(to: source.signal) }
    subscriber = source.subscriber
  }

  func send(_ event: Event<Int, StressFailure>) { subscriber.send(event) }

  func dispose() { subscription.dispose() }

  var leftover: String? {
    source.cleanups.value == 1 ? nil : "the create body's cleanup ran \(source.cleanups.value) times"
  }
}

/// A subject with one recorder subscribed; sends go to the subject.
struct SubjectChannel: Channel {
  let subject = Subject<Int, StressFailure>()
  let subscription: any Disposable

  init(_ recorder: Recorder<Int>) {
    subscription = recorder.subscribe(to: subject)
  }

  func send(_ event: Event<Int, StressFailure>) { subject.send(event) }

  func dispose() { subscription.dispose() }

  var leftover: String? {
    subject.subscriberCount == 0 ? nil : "the subject still has \(subject.subscriberCount) subscribers"
  }
}

/// A write-once reference, set before a race and only read during it (the crew's start orders the write
/// before every read), so that callbacks can reach it without taking a lock.
final class Late<Value: Sendable>: @unchecked Sendable {
  // guarded by: written once, by the coordinator before the race; read-only afterwards.
  private var stored: Value?

  init() {}

  func set(_ value: Value) { stored = value }

  var value: Value {
    guard let stored else { preconditionFailure("Late: read before it was set") }
    return stored
  }
}
