import AsyncSignals
import Foundation

/// A signal whose subscriptions are observable from a test: each subscription opens `subscribed` (after
/// subscribing to `source`, if any) and, when disposed, counts itself in `disposals` and opens `disposed`.
final class ProbedSignal<Value: Sendable, Failure: Error>: Sendable {
  let subscribed = Gate()
  let disposed = Gate()
  let subscriptions = Locked(0)
  let disposals = Locked(0)
  private let body: @Sendable (any Subscriber<Value, Failure>) -> (any Disposable)?

  /// Probes a subscription to `source` (a subject, for example).
  convenience init(_ source: Signal<Value, Failure>) {
    self.init { subscriber in source.subscribe(subscriber) }
  }

  /// Probes a `create`-like body.
  init(body: @escaping @Sendable (any Subscriber<Value, Failure>) -> (any Disposable)?) {
    self.body = body
  }

  var signal: Signal<Value, Failure> {
    .create { subscriber in
      let inner = self.body(subscriber)
      self.subscriptions.increment()
      self.subscribed.open()
      return ActionDisposable {
        inner?.dispose()
        self.disposals.increment()
        self.disposed.open()
      }
    }
  }
}

/// An `AsyncSequence` with a typed failure that plays a script and records how it is iterated.
struct ScriptedSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  enum Ending: Sendable {
    case finish
    case fail(Failure)
    /// Waits until the iterating task is cancelled, then ends.
    case waitForCancellation
  }

  /// What the iteration saw.
  final class Probe: Sendable {
    /// Opened when the script has sent its elements and waits for cancellation.
    let waiting = Gate()
    /// Opened when the iterating task is cancelled.
    let cancelled = Gate()
    /// For each call to `next`: whether it was called without an actor and outside any scheduler's block
    /// (so not on the main actor or the main queue).
    let calls = Locked<[Bool]>([])
  }

  let elements: [Element]
  let ending: Ending
  let probe = Probe()

  init(_ elements: [Element], then ending: Ending) {
    self.elements = elements
    self.ending = ending
  }

  func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

  struct Iterator: AsyncIteratorProtocol {
    let sequence: ScriptedSequence
    var index = 0

    mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      sequence.probe.calls.append(actor == nil && Schedulers.current == nil)
      if index < sequence.elements.count {
        index += 1
        return sequence.elements[index - 1]
      }
      switch sequence.ending {
      case .finish:
        return nil
      case .fail(let failure):
        throw failure
      case .waitForCancellation:
        let probe = sequence.probe
        await withTaskCancellationHandler {
          probe.waiting.open()
          await probe.cancelled.wait()
        } onCancel: {
          probe.cancelled.open()
        }
        return nil
      }
    }

    mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}
