import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

// The harness of the guarantee 2 sweep (Core/Guarantee2Sweep*.swift): one row per public operator or factory that
// returns a signal, subscribed in every public form, with its inputs sending while subscribed, on the test's thread
// and on another thread; the first value's callback disposes the subscription, after which nothing may arrive. This
// file: the subscription forms and the recorder; Guarantee2SweepFixture.swift: the inputs; Guarantee2SweepRow.swift:
// the rows, and how a case runs.
//
// `Scripts/check-guarantee2-sweep.swift` reads the rows' names out of those files (the first string of each
// `.row(`, `.failingRow(` and `.silentRow(`, and its `overload:`) and fails when a public declaration returning a
// signal has none: keep that shape when adding a row.

/// How a sweep case subscribes: the public subscription forms.
enum SweepForm: String, CaseIterable, Sendable {
  /// `subscribeNext(_:)`, the one-closure form (signals that cannot fail only).
  case next = "subscribeNext(_:)"
  /// `subscribeNext(_:error:completed:)`.
  case nextErrorCompleted = "subscribeNext(_:error:completed:)"
  /// `subscribe(_:)` with a `Subscriber` that receives the disposable in `didSubscribe(with:)` first.
  case subscriber = "subscribe(_:)"
}

/// Where a sweep case's sources send from.
enum SweepSource: String, CaseIterable, Sendable {
  /// Each input sends all its values and its end at once, from inside the subscription that attaches to it, on the
  /// test's thread: with `subscribe(_:)` only, as `subscribeNext` has not returned the disposable yet.
  case atSubscription = "sent while subscribing"
  /// The test's own thread sends every value and the end, at once, after subscribing.
  case testThread = "sent on the test's thread"
  /// A queue of its own sends them (a `QueueScheduler`'s, so that inputs subscribed meanwhile attach at once); the
  /// test waits until it has finished.
  case otherThread = "sent on another thread"
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

  var isTerminal: Bool {
    switch self {
    case .error, .completed: true
    case .value, .disposing: false
    }
  }
}

/// Records what one subscription receives, and disposes it where the case asks.
final class SweepRecorder: Sendable {
  enum Mode: Sendable {
    /// Disposes in the callback of the first value that arrives once the subscription's disposable is known: the
    /// very first value, unless the signal sends while `subscribeNext` has not returned it yet.
    case disposesAtFirstValue
    /// Disposes as soon as the disposable is known (before any value, for a signal that sends none).
    case disposesAtOnce
    /// Never disposes: the control run, which shows what the signal sends.
    case keeps
  }

  private struct State {
    var entries: [SweepEntry] = []
    var subscription: (any Disposable)?
    var disposed = false
    /// Where the first value was delivered (`Schedulers.current` in its callback).
    var firstValueScheduler: (any Scheduler)?
    var waitingForTerminal: CheckedContinuation<Void, Never>?
    var terminated = false
    var waitingForFirstValue: CheckedContinuation<Void, Never>?
  }

  let mode: Mode
  private let state = Locked(State())

  init(_ mode: Mode) {
    self.mode = mode
  }

  var entries: [SweepEntry] { state.value.entries }

  /// Keeps the subscription's disposable: from `didSubscribe(with:)`, or once `subscribeNext` has returned it.
  func keep(_ subscription: any Disposable) {
    let disposesNow = state.withLock { state -> Bool in
      state.subscription = subscription
      guard mode == .disposesAtOnce, !state.disposed else { return false }
      state.disposed = true
      state.entries.append(.disposing)
      return true
    }
    if disposesNow { subscription.dispose() }
  }

  func received(_ value: some Any) {
    let current = Schedulers.current
    let (toDispose, waiting) = state.withLock { state -> ((any Disposable)?, CheckedContinuation<Void, Never>?) in
      state.entries.append(.value(String(describing: value)))
      if state.firstValueScheduler == nil { state.firstValueScheduler = current }
      defer { state.waitingForFirstValue = nil }
      guard mode == .disposesAtFirstValue, !state.disposed, let subscription = state.subscription else {
        return (nil, state.waitingForFirstValue)
      }
      state.disposed = true
      state.entries.append(.disposing)  // before `dispose()`: whatever arrives during it comes after the disposal
      return (subscription, state.waitingForFirstValue)
    }
    toDispose?.dispose()
    waiting?.resume()
  }

  func failed(_ error: some Error) { ended(.error(String(describing: error))) }
  func completed() { ended(.completed) }

  private func ended(_ entry: SweepEntry) {
    let waiting = state.withLock { state in
      state.entries.append(entry)
      state.terminated = true
      defer { state.waitingForTerminal = nil }
      return state.waitingForTerminal
    }
    waiting?.resume()
  }

  /// Returns once a terminal event has arrived.
  func terminal() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state in
        if !state.terminated { state.waitingForTerminal = continuation }
        return state.terminated
      }
      if now { continuation.resume() }
    }
  }

  /// Returns once the first value has arrived, and the serial scheduler that delivered it has run two more turns: a
  /// block that it ran after that value's callback returned, such as the next step of a walk, has then run too.
  func twoTurnsOfFirstValueScheduler() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state in
        let arrived =
          state.firstValueScheduler != nil || state.entries.contains { if case .value = $0 { true } else { false } }
        if !arrived { state.waitingForFirstValue = continuation }
        return arrived
      }
      if now { continuation.resume() }
    }
    guard let scheduler = state.value.firstValueScheduler else { return }
    await withCheckedContinuation { continuation in
      _ = scheduler.schedule { _ = scheduler.schedule { continuation.resume() } }
    }
  }
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
      recorder.keep(
        subscribeNext({ recorder.received($0) }, error: { _ in }, completed: { recorder.completed() }))
    case .subscriber:
      subscribe(SweepSubscriber<Value, Never>(recorder: recorder))
    }
  }
}
