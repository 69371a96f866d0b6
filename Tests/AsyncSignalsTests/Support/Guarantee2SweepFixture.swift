import Foundation

@testable import AsyncSignals

// The inputs of the guarantee 2 sweep's rows (see Guarantee2Sweep.swift).

/// The inputs and the virtual clock of one sweep case.
final class SweepFixture: Sendable {
  /// The scheduler of every time operator and hop in the table; the drive ends by advancing it a minute.
  let scheduler = TestScheduler()
  /// Whether the inputs made with `input(_:then:)` and `lateInput(_:then:)` send as soon as they are subscribed to,
  /// rather than when fired.
  let sendsWhileSubscribing: Bool
  private let firings = Locked<[@Sendable () -> Void]>([])
  private let lateFirings = Locked<[@Sendable () -> Void]>([])

  init(sendsWhileSubscribing: Bool) {
    self.sendsWhileSubscribing = sendsWhileSubscribing
  }

  /// A cold input whose subscribers receive `values` and then `end` when the fixture fires its inputs, in the
  /// order the inputs were made; a subscription made after its firing (a resubscription, an inner signal subscribed
  /// later) receives nothing. With `sendsWhileSubscribing`, each subscription receives them at once instead.
  func input<Value: Sendable, Failure: Error>(
    _ values: [Value], then end: Event<Value, Failure>? = .completed
  ) -> Signal<Value, Failure> {
    if sendsWhileSubscribing { return Self.sendingWhileSubscribing(values, then: end) }
    let input = SweepInput<Value, Failure>()
    firings.append { input.send(values, then: end) }
    return input.signal
  }

  private static func sendingWhileSubscribing<Value: Sendable, Failure: Error>(
    _ values: [Value], then end: Event<Value, Failure>?
  ) -> Signal<Value, Failure> {
    .create { subscriber in
      for value in values { subscriber.sendNext(value) }
      if let end { subscriber.send(end) }
      return nil
    }
  }

  /// `input(_:then:)`, fired after every input made with it: for an inner signal, subscribed only once the outer
  /// input has sent it.
  func lateInput<Value: Sendable, Failure: Error>(
    _ values: [Value], then end: Event<Value, Failure>? = .completed
  ) -> Signal<Value, Failure> {
    if sendsWhileSubscribing { return Self.sendingWhileSubscribing(values, then: end) }
    let input = SweepInput<Value, Failure>()
    lateFirings.append { input.send(values, then: end) }
    return input.signal
  }

  /// An input of integers that cannot fail.
  func ints(_ values: [Int] = [1, 2, 3, 4, 5]) -> Signal<Int, Never> { input(values) }

  /// An input of integers that can fail, and ends with `end`.
  func failingInts(_ values: [Int] = [1, 2, 3, 4, 5], then end: Event<Int, TestError> = .completed)
    -> Signal<Int, TestError>
  { input(values, then: end) }

  /// An input of Booleans that cannot fail.
  func bools(_ values: [Bool]) -> Signal<Bool, Never> { input(values) }

  /// An input that only the row's own drive sends into.
  func manualInput<Value: Sendable, Failure: Error>(
    _ value: Value.Type = Value.self, _ failure: Failure.Type = Failure.self
  ) -> SweepInput<Value, Failure> {
    SweepInput()
  }

  /// Runs `step` when the fixture fires its inputs, in its place among them.
  func onFire(_ step: @escaping @Sendable () -> Void) {
    firings.append(step)
  }

  /// Sends 1 to 5 into `subscriber` (a subject), then completes it, when the fixture fires its inputs.
  func onFireSendNumbers(to subscriber: some Subscriber<Int, Never>) {
    onFire {
      for value in 1...5 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
    }
  }

  /// Fires the inputs, the `onFire` steps, then the late inputs, each in the order they were made.
  func fireInputs() {
    for firing in firings.value { firing() }
    for firing in lateFirings.value { firing() }
  }
}

/// A cold signal whose subscribers a test sends into: each subscription registers its subscriber, and each send
/// goes to every subscriber registered so far.
final class SweepInput<Value: Sendable, Failure: Error>: Sendable {
  private let subscribers = Locked<[any Subscriber<Value, Failure>]>([])
  let signal: Signal<Value, Failure>

  init() {
    let subscribers = self.subscribers
    signal = .create { subscriber in
      subscribers.append(subscriber)
      return nil
    }
  }

  func send(_ value: Value) { for subscriber in subscribers.value { subscriber.sendNext(value) } }
  func complete() { for subscriber in subscribers.value { subscriber.sendCompleted() } }
  func fail(_ error: Failure) { for subscriber in subscribers.value { subscriber.sendError(error) } }

  func send(_ values: [Value], then end: Event<Value, Failure>?) {
    for value in values { send(value) }
    if let end { for subscriber in subscribers.value { subscriber.send(end) } }
  }
}
