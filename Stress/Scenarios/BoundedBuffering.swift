import AsyncSignals
import AsyncSignalsInterop
import Synchronization

/// Interop: `values(bufferingPolicy: .bounded(n))` with 4 producer threads and a slow consumer.
///
/// A subject's order is recorded by a reference subscriber. Thread 0 starts a task that loops over the subject's
/// values with the bounded policy, n from 1 to 4, yielding now and then, and waits for it to end. Once the task
/// has subscribed, the 4 other threads (plain threads: they may wait for room) send 150 values each, and the last
/// to finish completes the subject. Each time a send returns, the producer compares the values sent so far with
/// those the loop has taken: the difference never exceeds the bound, plus the one value that may be in flight
/// to the loop.
struct BoundedBufferingRace: Scenario {
  static let lossless = "every value the subject sent is delivered exactly once, in the subject's order"
  static let bounded = "sent - taken never exceeds the bound + 1 when a send returns (producers wait for room)"
  static let noOverflow = "overflowCount is 0: plain-thread producers always wait, never overflow"
  static let ends = "the loop ends exactly once, with the subject's completion"

  let name = "BoundedBuffering"
  let race = "4 producer threads send into a subject that a slow for-await loop consumes through a bounded buffer"
  let invariants = [lossless, bounded, noOverflow, ends]
  let sabotage = UnboundedBackpressure.description

  func threads(requested: Int) -> Int { 5 }

  func iterate(_ iteration: Iteration) {
    let values = 150
    var random = iteration.random()
    let limit = 1 + random.below(4)
    let subject = Subject<Int, StressFailure>()
    let reference = Recorder<Int>()
    let referenceSubscription = immediately { reference.subscribe(to: subject) }
    let sequence =
      iteration.isSabotaged
      ? UnboundedBackpressure.values(of: subject) : subject.values(bufferingPolicy: .bounded(limit))
    let taken = Counter()
    let sent = Counter()
    let worstAhead = Counter()
    let outcome = LockedBox<(values: [Int], failure: Int?, ends: Int)>(([], nil, 0))
    let ended = Latch()
    let producers = iteration.threads - 1
    let finished = Tally()
    var seeds = iteration.random(thread: 99)
    let consumerSeed = seeds.next()
    iteration.race(withCurrentScheduler: false) { thread, random in
      if thread == 0 {
        Task.detached {
          var random = SplitMix(seed: consumerSeed)
          var received: [Int] = []
          do {
            for try await value in sequence {
              received.append(value)
              taken.add(1)
              if random.oneIn(2) {
                for _ in 0..<random.below(8) { await Task.yield() }
              }
            }
            outcome.withLock { $0 = (received, nil, $0.ends + 1) }
          } catch {
            outcome.withLock { $0 = (received, (error as? StressFailure)?.code ?? .min, $0.ends + 1) }
          }
          ended.signal()
        }
        if !ended.wait(for: 1, seconds: 10) {
          iteration.fail(Self.ends, "the loop had not ended 10 s after completion")
        }
        return
      }
      guard waitUntil({ subject.subscriberCount == 2 }) else {
        iteration.fail(Self.ends, "the loop never subscribed")
        return
      }
      for sequence in 0..<values {
        subject.sendNext(thread * 100_000 + sequence)
        // Count this send, then read `taken`: every send counted has happened, and `taken` only grows, so the
        // difference never overstates what was outstanding when `taken` was read (but for a value handed to the
        // loop and not yet counted by it). Reading `taken` first would let other producers' sends land between.
        let sentSoFar = sent.add(1)
        worstAhead.raise(to: sentSoFar - taken.value)
        if random.oneIn(16) { random.dawdle(2) }
      }
      if finished.increment() == producers { subject.sendCompleted() }
      iteration.count(values)
    }
    referenceSubscription.dispose()
    let order = reference.values
    let (delivered, failure, ends) = outcome.value
    iteration.check(
      ends == 1 && failure == nil, Self.ends, "the loop ended \(ends) times, failure \(String(describing: failure))")
    iteration.check(
      delivered == order, Self.lossless, "\(delivered.count) delivered of \(order.count) sent, or out of order")
    iteration.check(
      worstAhead.value <= limit + 1, Self.bounded,
      "a send returned with \(worstAhead.value) values not yet taken; the bound is \(limit)")
    iteration.check(
      sequence.overflowCount == 0, Self.noOverflow, "overflowCount is \(sequence.overflowCount)")
  }
}

/// A counter that only grows, readable from any thread.
private final class Counter: Sendable {
  private let count = Atomic<Int>(0)  // guarded by: atomicity

  var value: Int { count.load(ordering: .acquiring) }

  /// Adds `amount` and returns the new value.
  @discardableResult
  func add(_ amount: Int) -> Int { count.add(amount, ordering: .acquiringAndReleasing).newValue }

  /// Raises the value to `candidate` if it is larger.
  func raise(to candidate: Int) {
    var current = count.load(ordering: .relaxed)
    while candidate > current {
      let (exchanged, original) = count.compareExchange(
        expected: current, desired: candidate, ordering: .acquiringAndReleasing)
      if exchanged { return }
      current = original
    }
  }
}
