import AsyncSignals
import AsyncSignalsInterop

// How the flow-control scenarios (issue 19) consume a signal through a bounded buffer, and what they share.

/// A loop's source of values: the library's `values(bufferingPolicy: .bounded(limit))`, or a broken twin of it
/// (`TwinBoundedBuffer`) when the scenario is sabotaged.
struct BoundedLoop: Sendable {
  private let library: SignalSequence<Int, StressFailure>?
  private let twin: TwinBoundedValues?

  init(_ signal: Signal<Int, StressFailure>, limit: Int, twin bug: TwinBoundedBuffer.Bug? = nil) {
    if let bug {
      library = nil
      twin = TwinBoundedValues(signal: signal, limit: limit, bug: bug)
    } else {
      library = signal.values(bufferingPolicy: .bounded(limit))
      twin = nil
    }
  }

  /// The values buffered beyond the limit by all iterators (`SignalSequence.overflowCount`): any thread may read it.
  var overflowCount: Int { library?.overflowCount ?? twin?.overflows.value ?? 0 }

  /// A new iterator: its first `next` subscribes, in the calling task.
  func makeIterator() -> BoundedIterator {
    if let library { return BoundedIterator(.library(library.makeAsyncIterator())) }
    guard let twin else { preconditionFailure("BoundedLoop: neither the library nor a twin") }
    return BoundedIterator(.twin(twin.makeIterator()))
  }
}

/// One subscription through a bounded buffer; dropping it ends the subscription (the loop was left).
struct BoundedIterator {
  fileprivate enum Base {
    case library(SignalSequence<Int, StressFailure>.Iterator)
    case twin(TwinBoundedValues.Iterator)
  }

  private var base: Base

  fileprivate init(_ base: Base) { self.base = base }

  /// The next value, in the caller's isolation; `nil` at the end (completion or cancellation).
  mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(StressFailure) -> Int? {
    switch base {
    case .library(var iterator):
      let value = try await iterator.next(isolation: actor)
      base = .library(iterator)
      return value
    case .twin(let iterator):
      return try await iterator.next(isolation: actor)
    }
  }

  /// The most values the buffer ever held (the library's instrumented counter, `Iterator.highWaterMark`).
  var highWaterMark: Int {
    switch base {
    case .library(let iterator): iterator.highWaterMark
    case .twin(let iterator): iterator.lifetime.buffer.highWaterMark
    }
  }

  /// The values this iterator buffered beyond the limit.
  var overflowCount: Int {
    switch base {
    case .library(let iterator): iterator.overflowCount
    case .twin(let iterator): iterator.lifetime.buffer.overflowCount
    }
  }
}

/// What one bounded loop saw, read by the harness after it ended.
struct BoundedOutcome: Sendable {
  var values: [Int] = []
  /// The failure's code, if the loop ended with one.
  var failure: Int?
  var ends = 0
  var highWaterMark = 0
  var overflow = 0
}

/// What the scenarios over a subject record and check of their loop.
enum BoundedBuffer {
  /// Records `seen`, the outcome of a loop that has just ended, counting this end, and signals `ended`.
  static func record(_ seen: BoundedOutcome, in outcome: LockedBox<BoundedOutcome>, ended: Latch) {
    outcome.withLock { total in
      var seen = seen
      seen.ends = total.ends + 1
      total = seen
    }
    ended.signal()
  }

  /// The loop ended once, with the subject's completion (invariant `ends`), and received what the subject sent,
  /// `expected` values in the subject's `order` (invariant `lossless`).
  static func checkEndsLosslessly(
    _ iteration: Iteration, _ seen: BoundedOutcome, order: [Int], expected: Int, ends: String, lossless: String
  ) {
    iteration.check(
      seen.ends == 1 && seen.failure == nil, ends,
      "the loop ended \(seen.ends) times, failure \(String(describing: seen.failure))")
    guard seen.values != order || order.count != expected else { return }
    let missing = Set(order).subtracting(seen.values).sorted()
    let firstOutOfPlace = zip(seen.values, order).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    iteration.fail(
      lossless,
      "\(seen.values.count) delivered of \(order.count) sent (\(expected) expected): missing \(missing.prefix(8)), "
        + "first out of place at \(String(describing: firstOutOfPlace)), last received \(seen.values.suffix(4))")
  }

  static let overflowAgrees =
    "overflowCount agrees with the high-water mark: at least what the peak held beyond the bound and the chain's "
    + "slack, 0 exactly when the buffer never went past both"

  /// `overflow >= max(0, highWaterMark - limit - slack)`: the buffer rose one value at a time from empty to its peak,
  /// and each value that took it past the limit and the slack of the chain's stages (32 per hop: what they hold by
  /// design, though their sources paused) was counted; and `overflow > 0` only if it ever went past both.
  static func checkOverflow(_ iteration: Iteration, _ outcome: BoundedOutcome, limit: Int, slack: Int = 0) {
    let beyond = max(0, outcome.highWaterMark - limit - slack)
    iteration.check(
      outcome.overflow >= beyond && (outcome.overflow == 0) == (beyond == 0), overflowAgrees,
      "overflowCount \(outcome.overflow), high-water mark \(outcome.highWaterMark), bound \(limit), slack \(slack)")
  }
}

/// A gate a task awaits until a harness thread opens it (the task's thread is given back meanwhile).
final class AsyncGate: Sendable {
  private let state = LockedBox<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  init() {}

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isOpen = state.withLock { state -> Bool in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
