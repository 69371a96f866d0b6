import AsyncSignals

/// Flow control: `values(bufferingPolicy: .bounded(n))` with 4 producer threads and a slow loop. A producer that
/// cannot pause (a subject's `sendNext` from a plain thread) never waits for room: what exceeds the bound is
/// buffered and counted in `overflowCount` (issue 19).
///
/// A reference subscriber records the subject's order. Thread 0 starts a task that loops over the subject through
/// a bounded buffer (n from 1 to 8), and coordinates; threads 1 to 4 produce. Two phases:
/// - A, the race: once the loop has subscribed, the producers send `perThreadA` values each, dawdling now and then,
///   while the loop takes values, yielding now and then. After its k-th value (k random, at most what phase A sends)
///   the loop stops at a gate.
/// - B, the loop held back: once every producer has finished phase A and the loop is at the gate, thread 0 reads the
///   overflow counter (O₁) and lets the producers send `perThreadB` values each (at least as many as in phase A).
///   Every send must return while the loop is held: a producer that waited for room would wait for good (the old
///   contract hangs here). Thread 0 waits 10 s at most, then reports it and opens the gate anyway.
/// Then thread 0 opens the gate and completes the subject; the loop takes the rest and ends.
///
/// The overflow is exact in phase B. At the gate the buffer holds C₁ = S_A − k values: the S_A values of phase A have
/// all arrived (each send returned after delivering), and the loop has taken k (the first values may have gone
/// straight to the waiting loop, which is a take too). The loop takes its values in runs, without the lock, and its
/// buffer counts the s values it has taken from the current run since it last took the lock (0 ≤ s ≤ k): they count
/// as held until it says so, and it says nothing while held at the gate. So the count stands at C₁ + s. Phase B adds
/// S_B values one at a time and takes none, so the values that take the count past n are
/// max(0, C₁ + s + S_B − max(C₁ + s, n)), and each is counted: O₂ = O₁ + max(0, C₁ + s + S_B − max(C₁ + s, n)). The
/// count peaks at C₁ + s + S_B, which is at least S_A (S_B ≥ S_A ≥ k) and so above anything phase A can have
/// counted: the high-water mark is exactly C₁ + s + S_B, which gives s. In phase A the loop and the producers race
/// and the overflow cannot be predicted value by value; there O₁ ≤ max(0, S_A − n) is checked, and `BoundedEcho` and
/// `BoundedConsumerQueue` check that the counter agrees with the high-water mark.
struct BoundedBufferingRace: Scenario {
  static let lossless = "every value the subject sent is delivered exactly once, in the subject's order"
  static let neverWaits =
    "no producer waits for room: every send returns while the loop is held at a gate (within 10 s)"
  static let exactOverflow =
    "overflowCount counts exactly the values buffered beyond the bound: with the loop held at the gate, "
    + "O₂ = O₁ + max(0, C₁ + s + S_B − max(C₁ + s, n)), and the high-water mark is C₁ + s + S_B, where s ≤ k "
    + "counts the values the loop took from its run since it last took the lock"
  static let ends = "the loop ends exactly once, with the subject's completion"

  let name = "BoundedBuffering"
  let race =
    "4 producer threads send into a subject read by a slow loop over .bounded(n), then more while the loop is held"
  let invariants = ["no deadlock", lossless, neverWaits, exactOverflow, ends]
  let sabotage = BlockingBoundedBuffer.description

  func threads(requested: Int) -> Int { 5 }

  /// What the run measured, printed after it.
  struct Figures {
    var highWaterMark = 0
    var overflow = 0
    var racingOverflow = 0
    var racingIterations = 0
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "high-water mark up to \(figures.highWaterMark) values (bound 1 to 8, loop held); "
      + "\(figures.overflow) values buffered beyond the bound in all, \(figures.racingOverflow) of them while the "
      + "loop raced the producers (phase A overflowed in \(figures.racingIterations) iterations)"
  }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let limit = 1 + random.below(8)
    let producers = 4
    let perThreadA = 10 + random.below(31)
    let perThreadB = perThreadA + random.below(21)
    let sentA = producers * perThreadA
    let sentB = producers * perThreadB
    let gateAfter = 1 + random.below(sentA)  // k: the values the loop takes before the gate
    let consumerSeed = random.next()
    let subject = Subject<Int, StressFailure>()
    let reference = Recorder<Int>()
    let referenceSubscription = immediately { reference.subscribe(to: subject) }
    let loop = BoundedLoop(subject, limit: limit, twin: iteration.isSabotaged ? .blocksForRoom : nil)
    let outcome = LockedBox(BoundedOutcome())
    let gate = AsyncGate()
    let atGate = Latch()
    let ended = Latch()
    let phaseADone = Latch()
    let phaseBGo = Latch()
    let phaseBDone = Latch()
    let counts = Owned<(held: Bool, before: Int, after: Int)>((false, 0, 0))
    iteration.race(withCurrentScheduler: false) { thread, random in
      guard thread == 0 else {
        guard waitUntil({ subject.subscriberCount == 2 }) else {
          iteration.fail(Self.ends, "the loop never subscribed")
          return
        }
        for sequence in 0..<(perThreadA + perThreadB) {
          if sequence == perThreadA {
            phaseADone.signal()
            _ = phaseBGo.wait(for: 1, seconds: 30)
          }
          subject.sendNext(thread * 100_000 + sequence)
          if random.oneIn(16) { random.dawdle(2) }
        }
        phaseBDone.signal()
        iteration.count(perThreadA + perThreadB)
        return
      }
      Task.detached {
        var random = SplitMix(seed: consumerSeed)
        var seen = BoundedOutcome()
        var iterator = loop.makeIterator()
        do throws(StressFailure) {
          while let value = try await iterator.next() {
            seen.values.append(value)
            if seen.values.count == gateAfter {
              atGate.signal()
              await gate.wait()
            } else if random.oneIn(2) {
              for _ in 0..<random.below(8) { await Task.yield() }
            }
          }
        } catch {
          seen.failure = error.code
        }
        seen.highWaterMark = iterator.highWaterMark
        seen.overflow = iterator.overflowCount
        BoundedBuffer.record(seen, in: outcome, ended: ended)
      }
      let phaseAFinished = phaseADone.wait(for: producers, seconds: 10) && atGate.wait(for: 1, seconds: 10)
      iteration.check(
        phaseAFinished, Self.neverWaits,
        "10 s after phase A began, the loop was\(atGate.wait(for: 1, seconds: 0) ? "" : " not") at its gate and "
          + "not every producer had returned from its sends")
      if !phaseAFinished { gate.open() }  // phase B cannot hold the loop: let the iteration end
      let before = loop.overflowCount
      phaseBGo.signal()
      let held = phaseBDone.wait(for: producers, seconds: 10)
      iteration.check(
        held, Self.neverWaits,
        "with the loop held at its gate (\(sentA - gateAfter) values buffered, bound \(limit)), the producers had "
          + "not returned from their \(sentB) sends 10 s later")
      counts.value = (phaseAFinished && held, before, loop.overflowCount)
      gate.open()
      if !held { _ = phaseBDone.wait(for: producers, seconds: 10) }
      subject.sendCompleted()
      iteration.check(ended.wait(for: 1, seconds: 10), Self.ends, "the loop had not ended 10 s after completion")
    }
    referenceSubscription.dispose()
    let order = reference.values
    let seen = outcome.value
    BoundedBuffer.checkEndsLosslessly(
      iteration, seen, order: order, expected: sentA + sentB, ends: Self.ends, lossless: Self.lossless)
    let (held, before, after) = counts.value
    guard held else { return }
    let buffered = sentA - gateAfter  // C₁
    let stale = seen.highWaterMark - buffered - sentB  // s: taken from the loop's run, not yet said
    let counted = buffered + stale  // C₁ + s
    let beyond = max(0, counted + sentB - max(counted, limit))
    iteration.check(
      (0...gateAfter).contains(stale) && after == before + beyond && seen.overflow == after,
      Self.exactOverflow,
      "bound \(limit), \(buffered) buffered at the gate (\(sentA) sent, \(gateAfter) taken), \(sentB) sent while "
        + "held: overflowCount went from \(before) to \(after) (the iterator's: \(seen.overflow)), expected "
        + "\(before) + \(beyond); high-water mark \(seen.highWaterMark), expected \(buffered + sentB) plus at most "
        + "\(gateAfter) taken from the loop's run (s = \(stale))")
    iteration.check(
      before <= max(0, sentA - limit), Self.exactOverflow,
      "\(before) values overflowed while \(sentA) were sent through a bound of \(limit)")
    Self.figures.withLock { figures in
      figures.highWaterMark = max(figures.highWaterMark, seen.highWaterMark)
      figures.overflow += seen.overflow
      figures.racingOverflow += before
      if before > 0 { figures.racingIterations += 1 }
    }
  }
}
