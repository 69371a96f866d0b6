import AsyncSignals
import Testing

// The subscription forms and the recorder of the guarantee 2 sweep of this module's factories
// (Guarantee2SweepInteropTests.swift): the same as AsyncSignalsTests' Support/Guarantee2Sweep.swift, which a test
// target cannot share with another.

/// How a sweep case subscribes: the public subscription forms.
enum SweepForm: String, CaseIterable, Sendable {
  /// `subscribeNext(_:)`, the one-closure form (signals that cannot fail only).
  case next = "subscribeNext(_:)"
  /// `subscribeNext(_:error:completed:)`.
  case nextErrorCompleted = "subscribeNext(_:error:completed:)"
  /// `subscribe(_:)` with a `Subscriber` that receives the disposable in `didSubscribe(with:)` first.
  case subscriber = "subscribe(_:)"
}

/// What a subscription received, in order; `disposing` marks where the subscriber disposed it.
enum SweepEntry: Equatable, Sendable, CustomStringConvertible {
  case value(String)
  case error(String)
  case completed
  case disposing

  var description: String {
    switch self {
    case .value(let value): "value \(value)"
    case .error(let error): "error \(error)"
    case .completed: "completed"
    case .disposing: "(disposed)"
    }
  }

  var isValue: Bool {
    if case .value = self { true } else { false }
  }

  var isTerminal: Bool {
    switch self {
    case .error, .completed: true
    case .value, .disposing: false
    }
  }
}

/// Records what one subscription receives and, unless it is a control run, disposes it in the callback of the first
/// value that arrives once its disposable is known.
final class SweepRecorder: Sendable {
  private struct State {
    var entries: [SweepEntry] = []
    var subscription: (any Disposable)?
    var disposed = false
  }

  let disposesAtFirstValue: Bool
  private let state = Locked(State())
  private let waiters = Locked<[(count: Int, gate: Gate)]>([])

  init(disposesAtFirstValue: Bool) {
    self.disposesAtFirstValue = disposesAtFirstValue
  }

  var entries: [SweepEntry] { state.value.entries }

  /// Keeps the subscription's disposable: from `didSubscribe(with:)`, or once `subscribeNext` has returned it.
  func keep(_ subscription: any Disposable) {
    state.withLock { $0.subscription = subscription }
  }

  func received(_ value: some Any) {
    let toDispose = state.withLock { state -> (any Disposable)? in
      state.entries.append(.value(String(describing: value)))
      guard disposesAtFirstValue, !state.disposed, let subscription = state.subscription else { return nil }
      state.disposed = true
      state.entries.append(.disposing)  // before `dispose()`: whatever arrives during it comes after the disposal
      return subscription
    }
    toDispose?.dispose()
    let count = state.value.entries.count(where: \.isValue)
    let arrived = waiters.withLock { waiters in
      defer { waiters.removeAll { $0.count <= count } }
      return waiters.filter { $0.count <= count }
    }
    for waiter in arrived { waiter.gate.open() }
  }

  /// Returns once `count` values have arrived.
  func values(_ count: Int) async {
    let gate = Gate()
    waiters.append((count, gate))
    if state.value.entries.count(where: \.isValue) >= count {
      gate.open()
    }
    await gate.wait()
  }

  func failed(_ error: some Error) { state.withLock { $0.entries.append(.error(String(describing: error))) } }
  func completed() { state.withLock { $0.entries.append(.completed) } }
}

/// The `Subscriber` of the `subscribe(_:)` form: it keeps the disposable it is given before any event, so that its
/// `sendNext` can dispose the subscription.
struct SweepSubscriber<Value: Sendable, Failure: Error>: Subscriber {
  let recorder: SweepRecorder

  func didSubscribe(with disposable: any Disposable) { recorder.keep(disposable) }
  func sendNext(_ value: Value) { recorder.received(value) }
  func sendError(_ error: Failure) { recorder.failed(error) }
  func sendCompleted() { recorder.completed() }
}

extension Signal {
  /// Subscribes `recorder` in `form` (not `.next`, which exists only for signals that cannot fail).
  func subscribe(_ form: SweepForm, _ recorder: SweepRecorder) {
    switch form {
    case .next:
      preconditionFailure("subscribeNext(_:) does not exist for a signal that can fail")
    case .nextErrorCompleted:
      recorder.keep(
        subscribeNext({ recorder.received($0) }, error: { recorder.failed($0) }, completed: { recorder.completed() }))
    case .subscriber:
      subscribe(SweepSubscriber<Value, Failure>(recorder: recorder))
    }
  }
}

extension Signal where Failure == Never {
  /// Subscribes `recorder` in `form`, the one-closure `subscribeNext(_:)` included.
  func subscribe(_ form: SweepForm, _ recorder: SweepRecorder) {
    switch form {
    case .next:
      recorder.keep(subscribeNext { recorder.received($0) })
    case .nextErrorCompleted:
      recorder.keep(subscribeNext({ recorder.received($0) }, error: { _ in }, completed: { recorder.completed() }))
    case .subscriber:
      subscribe(SweepSubscriber<Value, Never>(recorder: recorder))
    }
  }
}

/// The checks of guarantee 2 on what a subscription received: nothing after the disposal, nothing after a terminal
/// event, at most one terminal event. Records an issue for each violation.
func expectTerminalMeansTerminal(_ entries: [SweepEntry], sourceLocation: SourceLocation = #_sourceLocation) {
  if let disposal = entries.firstIndex(of: .disposing) {
    let after = entries[(disposal + 1)...]
    #expect(
      after.isEmpty, "arrived after the disposal: \(Array(after)); all: \(entries)", sourceLocation: sourceLocation)
  }
  let events = entries.filter { $0 != .disposing }
  if let terminal = events.firstIndex(where: \.isTerminal) {
    let after = events[(terminal + 1)...]
    #expect(after.isEmpty, "arrived after \(events[terminal]): \(Array(after))", sourceLocation: sourceLocation)
  }
}
