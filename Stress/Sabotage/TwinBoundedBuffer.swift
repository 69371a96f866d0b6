import AsyncSignals
import Foundation

/// The broken twin of `values(bufferingPolicy: .bounded(n))` that `--sabotage BoundedBuffering`, `BoundedEcho` and
/// `BoundedConsumerQueue` swap in: the contract before issue 19, where a producer on a plain thread or queue waits
/// for room.
enum BlockingBoundedBuffer {
  static let description =
    "a bounded buffer whose producers outside a task wait (on a condition variable) for room: the old contract"
}

/// The broken twin of the `.bounded` ring's wake-up that `--sabotage BoundedRing` swaps in (issue 29, item 5).
enum LateLookingProducer {
  static let description =
    "a bounded buffer whose producer looks for a waiting consumer before it publishes the value, not after"
}

/// A bounded buffer of up to `limit` values between a signal and the one task that reads it, as `BoundedLoop`
/// consumes it, with one of three bugs:
///
/// - `blocksForRoom` (`BlockingBoundedBuffer`): a sender that is not in a task waits on a condition variable until
///   the consumer has made room, as the library did before issue 19. It waits inside whatever it holds: the
///   subject's delivery turn (the consumer's echo into the subject then waits for that turn), or the serial queue
///   it runs on (the consumer's actor then never runs there). The consumer cannot make room: the run hangs.
/// - `forgetsDemandWhenCancelled` (`UnwokenProducers`): publishes its room as a `Demand`, as the library does, so
///   that `Signal.from` pauses; but when the loop is left or its task cancelled, it disposes the subscription
///   without ending the demand. A paused source is never resumed to find its subscription gone: it stays
///   registered with the demand, and allocated, for good.
/// - `looksForWaiterBeforePublishing` (`LateLookingProducer`): the library's ring hands a value over without a lock,
///   and its producer must publish the value before it looks for a waiting consumer (the consumer says it waits
///   before it looks at the ring once more). This twin looks first, under the lock, then publishes the value under
///   the lock again without looking: a consumer that found the buffer empty in between is not woken for it. It is
///   woken by a later value, handed to it past the buffered one, or by the completion, which ends the loop without
///   that value; with neither, it waits for good.
///
/// Otherwise it behaves as the library's buffer: the first call to `next` subscribes (in the consumer's task), a
/// waiting consumer gets a value directly, values beyond the limit are buffered and counted, the demand closes when
/// the buffer is full and reopens at half, a terminal event ends the loop after the buffered values.
final class TwinBoundedBuffer: Subscriber, @unchecked Sendable {
  // guarded by: `condition` — every `var` below; the `let`s are immutable (`demand` and `overflows` guard
  // themselves).
  typealias Value = Int
  typealias Failure = StressFailure
  typealias Waiter = CheckedContinuation<Result<Int?, StressFailure>, Never>

  enum Bug: Sendable {
    case blocksForRoom
    case forgetsDemandWhenCancelled
    case looksForWaiterBeforePublishing
  }

  private let condition = NSCondition()
  private let signal: Signal<Int, StressFailure>
  private let limit: Int
  private let bug: Bug
  private let overflows: Tally
  /// The room the buffer publishes to sources that can pause (`forgetsDemandWhenCancelled` only).
  private let demand: Demand?
  private var buffer = Ring<Int>()
  private var waiter: Waiter?
  /// The signal's terminal event, handed out after the buffered values.
  private var end: Result<Int?, StressFailure>?
  private var subscribed = false
  private var finished = false
  private var subscription: (any Disposable)?
  private var demandOpen = true
  private var demandGeneration: UInt64 = 0  // numbers the changes of `demandOpen`, as the library's buffer does
  private var overflowed = 0
  private var mostBuffered = 0

  init(_ signal: Signal<Int, StressFailure>, limit: Int, bug: Bug, overflows: Tally) {
    self.signal = signal
    self.limit = limit
    self.bug = bug
    self.overflows = overflows
    demand = bug == .forgetsDemandWhenCancelled ? Demand() : nil
  }

  var overflowCount: Int { condition.withLock { overflowed } }

  var highWaterMark: Int { condition.withLock { mostBuffered } }

  // MARK: The consumer

  func next(isolation actor: isolated (any Actor)?) async -> Result<Int?, StressFailure> {
    if Task.isCancelled { cancel() }
    let subscribe = condition.withLock { () -> Bool in
      defer { subscribed = true }
      return !subscribed && !finished
    }
    if subscribe { _ = signal.subscribe(self, demand: demand) }  // in the consumer's task, as the library does
    if let result = take(orWait: nil) { return result }
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: actor) { (continuation: Waiter) in
          if let result = take(orWait: continuation) { continuation.resume(returning: result) }
        }
      }, onCancel: { self.cancel() }, isolation: actor)
  }

  /// The next value or the end, or `nil` having registered `continuation` (if any) to receive it.
  private func take(orWait continuation: Waiter?) -> Result<Int?, StressFailure>? {
    condition.lock()
    if let value = buffer.popFirst() {
      condition.broadcast()  // room for a sender waiting in `sendNext` (`blocksForRoom`)
      var resumptions: [Demand.Resumption] = []
      if let demand, !demandOpen, buffer.count <= limit / 2 {
        demandOpen = true
        demandGeneration += 1
        resumptions = demand.reopen(generation: demandGeneration)
      }
      condition.unlock()
      for resumption in resumptions { resumption() }
      return .success(value)
    }
    if finished {
      condition.unlock()
      return .success(nil)
    }
    if let end {
      finished = true
      condition.unlock()
      return end
    }
    waiter = continuation
    condition.unlock()
    return nil
  }

  /// Ends the loop (it was left, or its task cancelled): resumes a waiting consumer and disposes the subscription.
  func cancel() {
    condition.lock()
    guard !finished else {
      condition.unlock()
      return
    }
    finished = true
    let waiter = self.waiter
    let subscription = self.subscription
    self.waiter = nil
    self.subscription = nil
    buffer.removeAll()
    // BUG (`forgetsDemandWhenCancelled`): the demand is not ended, so its registered resumptions never run: a
    // paused source stays paused, and allocated. (`blocksForRoom` publishes no demand.)
    condition.broadcast()
    condition.unlock()
    waiter?.resume(returning: .success(nil))
    subscription?.dispose()
  }

  // MARK: Subscriber

  func didSubscribe(with disposable: any Disposable) {
    let ended = condition.withLock { () -> Bool in
      guard !finished, end == nil else { return true }
      subscription = disposable
      return false
    }
    if ended { disposable.dispose() }
  }

  func sendNext(_ value: Int) {
    if bug == .looksForWaiterBeforePublishing {
      // BUG: looks for a waiting consumer, then publishes without looking again.
      let waiting = condition.withLock { waiter }
      if let waiting {
        condition.withLock { waiter = nil }
        waiting.resume(returning: .success(value))
        return
      }
      Thread.sleep(forTimeInterval: 0.000_05)  // the window the ring's ordering closes, widened
      condition.withLock {
        buffer.append(value)
        mostBuffered = max(mostBuffered, buffer.count)
      }
      return
    }
    condition.lock()
    if bug == .blocksForRoom, withUnsafeCurrentTask(body: { $0 == nil }) {
      // BUG (`blocksForRoom`): waits for room inside whatever the sender holds (a subject's delivery turn, the
      // serial queue it runs on), which the consumer may need before it can make room.
      while buffer.count >= limit, waiter == nil, !finished, end == nil { condition.wait() }
    }
    guard !finished, end == nil else {
      condition.unlock()
      return
    }
    if let waiter {
      self.waiter = nil
      condition.unlock()
      waiter.resume(returning: .success(value))
      return
    }
    buffer.append(value)
    mostBuffered = max(mostBuffered, buffer.count)
    if buffer.count > limit {
      overflowed += 1
      overflows.increment()
    } else if buffer.count == limit, demandOpen, let demand {
      demandOpen = false
      demandGeneration += 1
      demand.close(generation: demandGeneration)
    }
    condition.unlock()
  }

  func sendError(_ error: StressFailure) { terminate(.failure(error)) }

  func sendCompleted() { terminate(.success(nil)) }

  private func terminate(_ result: Result<Int?, StressFailure>) {
    condition.lock()
    guard !finished, end == nil else {
      condition.unlock()
      return
    }
    let subscription = self.subscription
    self.subscription = nil
    let resumptions = demand?.end() ?? []
    condition.broadcast()
    let waiter = self.waiter
    self.waiter = nil
    if waiter != nil { finished = true } else { end = result }
    condition.unlock()
    waiter?.resume(returning: result)
    withExtendedLifetime(subscription) {}
    for resumption in resumptions { resumption() }
  }
}

/// A twin buffer per iterator, with the overflow of all of them: the shape of `SignalSequence`.
struct TwinBoundedValues: Sendable {
  let signal: Signal<Int, StressFailure>
  let limit: Int
  let bug: TwinBoundedBuffer.Bug
  let overflows = Tally()

  func makeIterator() -> Iterator {
    Iterator(buffer: TwinBoundedBuffer(signal, limit: limit, bug: bug, overflows: overflows))
  }

  /// One subscription; dropping the iterator ends it, as the library's iterator does.
  struct Iterator {
    final class Lifetime {
      let buffer: TwinBoundedBuffer

      init(buffer: TwinBoundedBuffer) { self.buffer = buffer }

      deinit { buffer.cancel() }
    }

    let lifetime: Lifetime

    init(buffer: TwinBoundedBuffer) { lifetime = Lifetime(buffer: buffer) }

    func next(isolation actor: isolated (any Actor)?) async throws(StressFailure) -> Int? {
      try await lifetime.buffer.next(isolation: actor).get()
    }
  }
}
