import AsyncSignals
import AsyncSignalsInterop

/// Flow control: the `.bounded(n)` ring that a producer fills and a loop empties without a lock (issue 29, item 5),
/// its wake-up and its overflow.
///
/// Thread 0 starts a task that loops over a `Signal.async` body through `.bounded(n)` and waits for the loop to end
/// (10 s at most). n is 1 to 8, and in one iteration in eight 257 to 320 or 513 to 700: more than the ring's 256
/// places, so that the values past them wait behind the lock while the loop still has room (past 512, more than half
/// the bound waits there, and the loop reopens the demand as it takes its batch of them). The body sends 200 to 600
/// values from its own task on the pool. Half the
/// iterations it sends every value with `await send(_:)`, which waits while the loop is full; the other half it also
/// sends runs with `sendNext(_:)`, which never waits, so that the ring overflows into the buffer behind the lock and
/// values go back to the ring once the loop has taken that. Both sides change pace at random: the body yields now
/// and then, so that the loop runs the ring empty and waits (the producer must then wake it); the loop yields now and
/// then, so that the ring fills and the body pauses (the loop must then reopen the demand).
///
/// A wake-up the ring loses leaves the loop waiting with a value in its ring, and the body waiting for room that the
/// loop cannot make: the iteration does not end (invariant `ends`). Under ThreadSanitizer, a value read before the
/// producer's write of it is published is a data race.
struct BoundedRingRace: Scenario {
  static let lossless = "the loop receives every value the body sent, once each, in order"
  static let ends = "the loop ends exactly once, with the body's completion, within 10 s"
  static let withinBound =
    "with every value sent by await send, the loop never holds more than n (the high-water mark) and nothing "
    + "overflows; with runs of sendNext, the values held beyond n are all counted"

  let name = "BoundedRing"
  let race = "a Signal.async body sending with await send (and runs of sendNext) into a loop over .bounded(n)"
  let invariants = ["no deadlock", lossless, ends, withinBound]
  let sabotage = LateLookingProducer.description

  func threads(requested: Int) -> Int { 1 }

  struct Figures {
    var overflow = 0
    var pausingIterations = 0
    var overflowingIterations = 0
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "\(figures.pausingIterations) iterations sent only with await send, "
      + "\(figures.overflowingIterations) with runs of sendNext too (\(figures.overflow) values counted past n)"
  }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let pastTheRing = random.oneIn(2) ? 257 + random.below(64) : 513 + random.below(188)
    let limit = random.oneIn(8) ? pastTheRing : 1 + random.below(8)
    let count = 200 + random.below(401) + (limit > 8 ? limit : 0)
    let overflowing = random.oneIn(2)
    let producerSeed = random.next()
    let consumerSeed = random.next()
    let signal = Signal<Int, StressFailure>.async { subscriber in
      var random = SplitMix(seed: producerSeed)
      var value = 0
      while value < count {
        if overflowing && random.oneIn(8) {
          // A run that never waits: past a full ring, into the buffer behind the lock.
          for _ in 0..<min(1 + random.below(2 * limit + 2), count - value) {
            subscriber.sendNext(value)
            value += 1
          }
        } else {
          await subscriber.send(value)
          value += 1
        }
        if random.oneIn(4) { await Task.yield() }
      }
    }
    let loop = BoundedLoop(signal, limit: limit, twin: iteration.isSabotaged ? .looksForWaiterBeforePublishing : nil)
    let outcome = LockedBox(BoundedOutcome())
    let ended = Latch()
    iteration.race(withCurrentScheduler: false) { _, _ in
      Task.detached {
        var random = SplitMix(seed: consumerSeed)
        var seen = BoundedOutcome()
        var iterator = loop.makeIterator()
        do throws(StressFailure) {
          while let value = try await iterator.next() {
            seen.values.append(value)
            if random.oneIn(3) {
              for _ in 0..<random.below(4) { await Task.yield() }
            }
          }
        } catch {
          seen.failure = error.code
        }
        seen.highWaterMark = iterator.highWaterMark
        seen.overflow = iterator.overflowCount
        BoundedBuffer.record(seen, in: outcome, ended: ended)
      }
      iteration.check(ended.wait(for: 1, seconds: 10), Self.ends, "the loop had not ended 10 s after it began")
    }
    let seen = outcome.value
    BoundedBuffer.checkEndsLosslessly(
      iteration, seen, order: Array(0..<count), expected: count, ends: Self.ends, lossless: Self.lossless)
    if overflowing {
      BoundedBuffer.checkOverflow(iteration, seen, limit: limit)
    } else {
      iteration.check(
        seen.highWaterMark <= limit && seen.overflow == 0, Self.withinBound,
        "bound \(limit): high-water mark \(seen.highWaterMark), \(seen.overflow) counted past it")
    }
    iteration.count(count)
    Self.figures.withLock { figures in
      figures.overflow += seen.overflow
      if overflowing { figures.overflowingIterations += 1 } else { figures.pausingIterations += 1 }
    }
  }
}
