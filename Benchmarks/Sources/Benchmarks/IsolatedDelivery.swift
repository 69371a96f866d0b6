import AsyncSignals
import AsyncSignalsInterop
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

// B17…B17e (issue 11): a subject's events delivered into an actor, in ns per event, in bursts. Three rows each:
// `subscribeNext(isolatedTo:)` (the baseline), `for await` over the subject's `values` in a task on the actor,
// and a raw AsyncStream consumed by such a task. Two producers:
// - another thread (the benchmark thread) sending into a subscription of a default actor (B17, B17a, B17b);
// - the actor's own executor: a `QueueScheduler`-backed actor, each burst sent by a block on its queue
//   (B17c, B17d, B17e), where `subscribeNext(isolatedTo:)` delivers at once.
// A burst is `burst` sends; the producer then waits until the consumer has received the whole burst (another
// thread: a semaphore; own executor: the consumer queues the next burst's block), so a burst of 1 is one job
// (one hop onto the actor) per event. The consumer adds each value to its actor's state; the checksum is the sum.

/// The consumer: an actor that sums what it receives. Its state is touched only in its isolation.
actor SummingActor {
  var sum = 0
  var received = 0

  /// Adds `value`; answers whether it ends a burst of `burst` (or the whole run of `n`).
  func add(_ value: Int, burst: Int, of n: Int) -> Bool {
    sum &+= value
    received += 1
    return received % burst == 0 || received == n
  }

  /// `for await` over `sequence` in the actor's isolation, calling `endOfBurst` after each burst; returns the sum
  /// once `n` values have arrived.
  func consume<S: AsyncSequence & Sendable>(
    _ sequence: S, burst: Int, of n: Int, endOfBurst: @Sendable () -> Void
  ) async -> Int where S.Element == Int, S.Failure == Never {
    for await value in sequence where add(value, burst: burst, of: n) {
      endOfBurst()
      if received == n { break }
    }
    return sum
  }
}

/// The same, on a `QueueScheduler` as its executor: code in a block on `scheduler.queue` runs in its isolation.
actor QueueSummingActor {
  nonisolated let scheduler = QueueScheduler(name: "Benchmarks.QueueSummingActor")
  var sum = 0
  var received = 0

  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }

  func add(_ value: Int, burst: Int, of n: Int) -> Bool {
    sum &+= value
    received += 1
    return received % burst == 0 || received == n
  }

  func consume<S: AsyncSequence & Sendable>(
    _ sequence: S, burst: Int, of n: Int, endOfBurst: @Sendable () -> Void
  ) async -> Int where S.Element == Int, S.Failure == Never {
    for await value in sequence where add(value, burst: burst, of: n) {
      endOfBurst()
      if received == n { break }
    }
    return sum
  }
}

/// The result of a run, handed from the consumer to the benchmark thread.
final class Handoff: @unchecked Sendable {
  // guarded by: `done` — `sum` is written before `done.signal()` and read after `done.wait()`.
  var sum = 0
  let done = DispatchSemaphore(value: 0)

  func finish(_ sum: Int) {
    self.sum = sum
    done.signal()
  }

  func wait() -> Int {
    done.wait()
    return sum
  }
}

/// The bursts sent by blocks on an actor's queue: each block sends the next burst; the consumer asks for the
/// next block when it has received a burst.
final class QueueBursts: @unchecked Sendable {
  // guarded by: the queue — `next` is touched only by the blocks on `queue`, which run one at a time.
  private let queue: DispatchQueue
  private let n: Int
  private let burst: Int
  private let send: @Sendable (Int) -> Void
  private var next = 0

  init(on queue: DispatchQueue, n: Int, burst: Int, send: @escaping @Sendable (Int) -> Void) {
    self.queue = queue
    self.n = n
    self.burst = burst
    self.send = send
  }

  /// Queues the block that sends the next burst, if any is left.
  func requestBurst() {
    queue.async { [self] in
      let end = Swift.min(n, next + burst)
      let start = next
      next = end
      for value in start..<end { send(value) }
    }
  }
}

/// Sends `0..<n` from the calling thread in bursts of `burst`, waiting on `acks` after each.
private func sendInBursts(_ n: Int, burst: Int, acks: DispatchSemaphore, _ send: (Int) -> Void) {
  var value = 0
  while value < n {
    let end = min(n, value + burst)
    while value < end {
      send(value)
      value += 1
    }
    acks.wait()
  }
}

extension Benchmark {
  mutating func addIsolatedDeliveryBenchmarks() {
    for (id, burst, size, smoke) in [
      ("B17", 1024, 1 << 18, 4096), ("B17a", 16, 1 << 16, 256), ("B17b", 1, 20_000, 64),
    ] {
      workload(
        id, "issue 11: subject → a default actor, from another thread, bursts of \(burst)", unit: "event",
        size: size, smokeSize: smoke,
        target: burst == 1024 ? Target(atMost: 150, note: "issue 11: from another thread, bursts of 1,024") : nil,
        expected: triangle)
      addFromAnotherThread(id, burst: burst)
    }
    for (id, burst, size, smoke) in [
      ("B17c", 1024, 1 << 18, 4096), ("B17d", 16, 1 << 16, 256), ("B17e", 1, 20_000, 64),
    ] {
      workload(
        id, "issue 11: subject → a QueueScheduler-backed actor, sent on its executor, bursts of \(burst)",
        unit: "event", size: size, smokeSize: smoke,
        target: burst == 1024
          ? Target(atMost: 30, note: "issue 11: from the actor's own executor, bursts of 1,024") : nil,
        expected: triangle)
      addOnTheExecutor(id, burst: burst)
    }
  }

  private mutating func addFromAnotherThread(_ id: String, burst: Int) {
    add(id, .asyncSignals, variant: "subscribeNext(isolatedTo:)", threaded: true, isBaseline: true, .sync({ n in
      let actor = SummingActor()
      let subject = Subject<Int, Never>()
      let acks = DispatchSemaphore(value: 0)
      let result = Handoff()
      let subscription = subject.subscribeNext(isolatedTo: actor) { actor, value in
        if actor.add(value, burst: burst, of: n) {
          if actor.received == n { result.finish(actor.sum) }
          acks.signal()
        }
      }
      sendInBursts(n, burst: burst, acks: acks) { subject.sendNext($0) }
      let sum = result.wait()
      subscription.dispose()
      return sum
    }))
    add(id, .asyncSignals, variant: "for await over values, task on the actor", threaded: true) { n in
      let actor = SummingActor()
      let subject = Subject<Int, Never>()
      let acks = DispatchSemaphore(value: 0)
      let result = Handoff()
      let values = subject.values
      Task { result.finish(await actor.consume(values, burst: burst, of: n) { acks.signal() }) }
      while subject.subscriberCount == 0 { sched_yield() }
      sendInBursts(n, burst: burst, acks: acks) { subject.sendNext($0) }
      subject.sendCompleted()
      return result.wait()
    }
    add(id, .asyncStream, variant: "raw, task on the actor", threaded: true) { n in
      let actor = SummingActor()
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
      let acks = DispatchSemaphore(value: 0)
      let result = Handoff()
      Task { result.finish(await actor.consume(stream, burst: burst, of: n) { acks.signal() }) }
      sendInBursts(n, burst: burst, acks: acks) { continuation.yield($0) }
      continuation.finish()
      return result.wait()
    }
  }

  private mutating func addOnTheExecutor(_ id: String, burst: Int) {
    add(id, .asyncSignals, variant: "subscribeNext(isolatedTo:)", threaded: true, isBaseline: true, .sync({ n in
      let actor = QueueSummingActor()
      let subject = Subject<Int, Never>()
      let result = Handoff()
      let bursts = QueueBursts(on: actor.scheduler.queue, n: n, burst: burst) { subject.sendNext($0) }
      let subscription = subject.subscribeNext(isolatedTo: actor) { actor, value in
        if actor.add(value, burst: burst, of: n) {
          if actor.received == n { result.finish(actor.sum) } else { bursts.requestBurst() }
        }
      }
      bursts.requestBurst()
      let sum = result.wait()
      subscription.dispose()
      return sum
    }))
    add(id, .asyncSignals, variant: "for await over values, task on the actor", threaded: true) { n in
      let actor = QueueSummingActor()
      let subject = Subject<Int, Never>()
      let result = Handoff()
      let bursts = QueueBursts(on: actor.scheduler.queue, n: n, burst: burst) { subject.sendNext($0) }
      let values = subject.values
      Task { result.finish(await actor.consume(values, burst: burst, of: n) { bursts.requestBurst() }) }
      // The iterator subscribes at its first `next()`; the first burst must not be sent before that.
      while subject.subscriberCount == 0 { sched_yield() }
      bursts.requestBurst()
      return result.wait()
    }
    add(id, .asyncStream, variant: "raw, task on the actor", threaded: true) { n in
      let actor = QueueSummingActor()
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
      let result = Handoff()
      let bursts = QueueBursts(on: actor.scheduler.queue, n: n, burst: burst) { continuation.yield($0) }
      Task { result.finish(await actor.consume(stream, burst: burst, of: n) { bursts.requestBurst() }) }
      bursts.requestBurst()
      return result.wait()
    }
  }
}
