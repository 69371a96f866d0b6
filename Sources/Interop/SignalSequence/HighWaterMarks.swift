import AsyncSignals

/// The high-water marks of the iterators of one `.bounded` ``SignalSequence``, for its `highWaterMark`: the largest of
/// the iterators that have ended, and the live ones, asked when the figure is read. An iterator registers as it is
/// made and retires as it ends, so that nothing is added to the path of a value.
@usableFromInline
final class HighWaterMarks: Sendable {
  private struct State: Sendable {
    /// The largest high-water mark of the iterators that have ended.
    var ended = 0
    /// The storages of the live iterators, each registered by the iterator that owns it.
    var live: [ObjectIdentifier: any HighWaterMarkSource] = [:]
  }

  private let state = LockedState(State())  // guards the ended iterators' figure and the live iterators

  init() {}

  /// The most values any iterator of the sequence has held at once, so far.
  var value: Int {
    let (ended, live) = state.withLock { ($0.ended, Array($0.live.values)) }
    // Asked with this lock released: each storage takes its own.
    return live.reduce(ended) { Swift.max($0, $1.highWaterMark) }
  }

  func register(_ source: any HighWaterMarkSource) {
    state.withLock { $0.live[ObjectIdentifier(source)] = source }
  }

  /// `source`'s iterator has ended, and its buffer keeps nothing more: its figure is final.
  func retire(_ source: any HighWaterMarkSource) {
    let mark = source.highWaterMark
    state.withLock { state in
      state.live[ObjectIdentifier(source)] = nil
      state.ended = Swift.max(state.ended, mark)
    }
  }
}

/// An iterator's buffer, as `HighWaterMarks` asks it.
protocol HighWaterMarkSource: AnyObject, Sendable {
  /// The most values the buffer has held at once.
  var highWaterMark: Int { get }
}

extension SignalSequenceStorage: HighWaterMarkSource {}
