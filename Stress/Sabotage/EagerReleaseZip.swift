import AsyncSignals

/// The broken twin of `zip(with:)`'s turn (`--sabotage ZipTurn`), built on the public API: each pair goes to the
/// thread that completes it, or waits in order for the thread already delivering, which calls the observer through
/// an unmanaged reference without retaining it, as the library's `ZipPairStorage` does; a completion or a `take` that
/// runs out releases the observer at the end of the turn — but `dispose()` releases it at once, with no hand-off to
/// the turn in progress. A disposal from another thread, or from the callback itself, frees the observer while a
/// call through it is still running: a use-after-free, which AddressSanitizer reports as heap-use-after-free, and the
/// scenario as an observer released during a call.
final class EagerReleaseZip: Disposable {
  static let description =
    "a zip(with:) whose dispose() releases the observer at once, even while the thread in its turn is calling it"

  /// What the turn delivers.
  private enum Output: Sendable {
    case pair(Int, Int)
    case completed
  }

  /// Everything but the observer, which `state` does not own: `holdsObserver` says whether it is still to release.
  private struct State {
    var left: [Int] = []
    var right: [Int] = []
    var leftCompleted = false
    var rightCompleted = false
    var pairs = 0
    var isDelivering = false
    var queued: [Output] = []
    var isClosed = false
    var holdsObserver = true
    var subscriptions: [any Disposable] = []

    /// Delivers `outputs` in a turn the caller begins (the first is returned), or queues them behind the turn in
    /// progress.
    mutating func emit(_ outputs: [Output]) -> Output? {
      guard !isDelivering else {
        queued += outputs
        return nil
      }
      isDelivering = true
      queued += outputs.dropFirst()
      return outputs.first
    }

    /// Ends the zip: nothing is decided afterwards. Answers the input subscriptions to dispose.
    mutating func close() -> [any Disposable] {
      isClosed = true
      left.removeAll()
      right.removeAll()
      defer { subscriptions.removeAll() }
      return subscriptions
    }
  }

  private let state = LockedBox(State())  // guards all mutable state of the twin
  private let observer: Unmanaged<ZipTurnObserver>
  /// The pairs after which it completes, as a `take(limit)` after the library's zip does.
  private let limit: Int

  private init(_ observer: ZipTurnObserver, limit: Int) {
    self.observer = .passRetained(observer)
    self.limit = limit
  }

  deinit {
    if state.withLock({ $0.holdsObserver }) { observer.release() }  // never ended: no turn can be in progress
  }

  /// Zips `left` with `right` for `observer`, completing after `take` pairs if given.
  static func subscribe(
    _ left: Signal<Int, StressFailure>, _ right: Signal<Int, StressFailure>, take: Int?, _ observer: ZipTurnObserver
  ) -> any Disposable {
    let zip = EagerReleaseZip(observer, limit: take ?? .max)
    for (isLeft, input) in [(true, left), (false, right)] {
      let subscription = input.subscribeNext(
        { value in zip.received(value, left: isLeft) }, error: { _ in }, completed: { zip.completed(left: isLeft) })
      let keep = zip.state.withLock { state in
        if !state.isClosed { state.subscriptions.append(subscription) }
        return !state.isClosed
      }
      if !keep { subscription.dispose() }
    }
    return zip
  }

  var isDisposed: Bool { state.withLock { $0.isClosed } }

  func dispose() {
    let (subscriptions, release) = state.withLock { state in
      let subscriptions = state.close()
      state.queued.removeAll()
      defer { state.holdsObserver = false }
      return (subscriptions, state.holdsObserver)
    }
    for subscription in subscriptions { subscription.dispose() }
    if release { observer.release() }  // BUG: at once, even while the thread in the turn is calling it
  }

  private func received(_ value: Int, left isLeft: Bool) {
    var subscriptions: [any Disposable] = []
    let first = state.withLock { state -> Output? in
      guard !state.isClosed else { return nil }
      let partners = isLeft ? state.right : state.left
      guard !partners.isEmpty else {
        if isLeft { state.left.append(value) } else { state.right.append(value) }
        return nil
      }
      let pair = isLeft ? (value, state.right.removeFirst()) : (state.left.removeFirst(), value)
      state.pairs += 1
      let partnerDone = isLeft ? state.rightCompleted && state.right.isEmpty : state.leftCompleted && state.left.isEmpty
      guard state.pairs == limit || partnerDone else { return state.emit([.pair(pair.0, pair.1)]) }
      subscriptions = state.close()
      return state.emit([.pair(pair.0, pair.1), .completed])
    }
    for subscription in subscriptions { subscription.dispose() }
    deliver(first)
  }

  private func completed(left isLeft: Bool) {
    var subscriptions: [any Disposable] = []
    let first = state.withLock { state -> Output? in
      guard !state.isClosed else { return nil }
      if isLeft { state.leftCompleted = true } else { state.rightCompleted = true }
      guard isLeft ? state.left.isEmpty : state.right.isEmpty else { return nil }
      subscriptions = state.close()
      return state.emit([.completed])
    }
    for subscription in subscriptions { subscription.dispose() }
    deliver(first)
  }

  /// The turn: delivers `first`, then whatever was queued meanwhile, with the lock released; releases the observer
  /// at its end if the zip has ended (and `dispose()` has not released it already).
  private func deliver(_ first: Output?) {
    var next = first
    while let output = next {
      observer._withUnsafeGuaranteedRef { observer in  // BUG: unretained, and see `dispose()`
        switch output {
        case .pair(let left, let right): observer.receive((left, right))
        case .completed: observer.complete()
        }
      }
      var release = false
      next = state.withLock { state in
        if !state.queued.isEmpty { return state.queued.removeFirst() }
        state.isDelivering = false
        release = state.isClosed && state.holdsObserver
        if release { state.holdsObserver = false }
        return nil
      }
      if release { observer.release() }
    }
  }
}

/// The twin as the ZipTurn race zips with it.
struct EagerReleaseZipping: ZipTurnZipping {
  func subscribe(
    _ left: Signal<Int, StressFailure>, _ right: Signal<Int, StressFailure>, take: Int?, _ observer: ZipTurnObserver
  ) -> any Disposable {
    EagerReleaseZip.subscribe(left, right, take: take, observer)
  }
}
