import AsyncSignals

/// Flow control, issue 19's first hang shape and its library-driven variant: a loop over `.bounded(n)` sends back
/// into the subject it reads while 4 producers fill it.
///
/// Thread 0 starts a task that loops over a subject through a bounded buffer (n from 1 to 4), and coordinates; for
/// each producer value v the loop body sends v + 1,000,000 back into the subject (re-queueing a failed request),
/// and it yields now and then, so that the buffer fills. Threads 1 to 4 produce, once the loop has subscribed:
/// - shape (a), even iterations: plain threads send `perThread` values each into the subject;
/// - shape (d), odd iterations: a source the library drives feeds the subject. Each producer subscribes to
///   `Signal.from` of its values, through `map`, with a `subscribeNext` that sends into the subject: threads 1 and 3
///   with a current scheduler (the walk runs at once, on the producer's thread), threads 2 and 4 without one (the
///   walk runs on the library's background scheduler); each waits for its walk to complete. The subject ends the
///   pause, so the walks run unpaused, and their excess is buffered and counted.
/// Once every producer has returned and the loop has echoed every producer value, thread 0 completes the subject;
/// the loop takes the rest and ends.
///
/// With the old contract a producer waited for room inside the subject's delivery turn, and the loop's echo waited
/// for that turn, so the loop never made room: both hung for good (the broken twin does). Now a producer never
/// waits, and the echo waits only for a turn that ends.
struct BoundedEchoRace: Scenario {
  static let returns =
    "every producer returns and the loop echoes every producer value, within 10 s (no producer waits for room)"
  static let lossless =
    "every value sent, the producers' and the loop's echoes, is delivered exactly once, in the subject's order"
  static let ends = "the loop ends exactly once, with the subject's completion, within 10 s of it"

  let name = "BoundedEcho"
  let race =
    "a loop over .bounded(n) sends back into its subject while 4 producers (plain threads / Signal.from walks) fill it"
  let invariants = ["no deadlock", returns, lossless, ends, BoundedBuffer.overflowAgrees]
  let sabotage = BlockingBoundedBuffer.description

  static let echo = 1_000_000

  func threads(requested: Int) -> Int { 5 }

  struct Figures {
    var highWaterMark = [0, 0]
    var overflow = [0, 0]
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "plain-thread producers (a): high-water mark up to \(figures.highWaterMark[0]), \(figures.overflow[0]) "
      + "values buffered beyond the bound; Signal.from walks (d): high-water mark up to \(figures.highWaterMark[1]), "
      + "\(figures.overflow[1]) beyond the bound"
  }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let limit = 1 + random.below(4)
    let perThread = 20 + random.below(41)
    let producers = 4
    let total = producers * perThread
    let fromWalks = iteration.number % 2 == 1
    let consumerSeed = random.next()
    let subject = Subject<Int, StressFailure>()
    let reference = Recorder<Int>()
    let referenceSubscription = immediately { reference.subscribe(to: subject) }
    let loop = BoundedLoop(subject, limit: limit, twin: iteration.isSabotaged ? .blocksForRoom : nil)
    let outcome = LockedBox(BoundedOutcome())
    let echoed = Latch()
    let ended = Latch()
    let producersDone = Latch()
    iteration.race(withCurrentScheduler: false) { thread, random in
      guard thread == 0 else {
        defer { producersDone.signal() }
        guard waitUntil({ subject.subscriberCount == 2 }) else {
          iteration.fail(Self.ends, "the loop never subscribed")
          return
        }
        let base = thread * 100_000
        if fromWalks {
          let walked = Latch()
          let walk = Signal<Int, StressFailure>.from(0..<perThread).map { base + $0 }
          let subscribe = {
            walk.subscribeNext({ subject.sendNext($0) }, error: { _ in }, completed: { walked.signal() })
          }
          let subscription = thread % 2 == 1 ? immediately(subscribe) : subscribe()
          if !walked.wait(for: 1, seconds: 10) {
            iteration.fail(Self.returns, "producer \(thread)'s Signal.from walk had not completed within 10 s")
          }
          subscription.dispose()
        } else {
          for sequence in 0..<perThread {
            subject.sendNext(base + sequence)
            if random.oneIn(16) { random.dawdle(2) }
          }
        }
        iteration.count(perThread)
        return
      }
      Task.detached {
        var random = SplitMix(seed: consumerSeed)
        var seen = BoundedOutcome()
        var iterator = loop.makeIterator()
        var originals = 0
        do throws(StressFailure) {
          while let value = try await iterator.next() {
            seen.values.append(value)
            if value < Self.echo {
              subject.sendNext(value + Self.echo)  // back into the subject the loop reads
              originals += 1
              if originals == total { echoed.signal() }
            }
            if random.oneIn(2) {
              for _ in 0..<random.below(6) { await Task.yield() }
            }
          }
        } catch {
          seen.failure = error.code
        }
        seen.highWaterMark = iterator.highWaterMark
        seen.overflow = iterator.overflowCount
        BoundedBuffer.record(seen, in: outcome, ended: ended)
      }
      let returned = producersDone.wait(for: producers, seconds: 10)
      let allEchoed = echoed.wait(for: 1, seconds: 10)
      iteration.check(
        returned && allEchoed, Self.returns,
        (returned ? "" : "not every producer had returned within 10 s; ")
          + (allEchoed ? "" : "the loop had not echoed all \(total) producer values within 10 s"))
      subject.sendCompleted()
      iteration.check(ended.wait(for: 1, seconds: 10), Self.ends, "the loop had not ended 10 s after completion")
      iteration.count(total)
    }
    referenceSubscription.dispose()
    let order = reference.values
    let seen = outcome.value
    BoundedBuffer.checkEndsLosslessly(
      iteration, seen, order: order, expected: 2 * total, ends: Self.ends, lossless: Self.lossless)
    BoundedBuffer.checkOverflow(iteration, seen, limit: limit)
    let shape = fromWalks ? 1 : 0
    Self.figures.withLock { figures in
      figures.highWaterMark[shape] = max(figures.highWaterMark[shape], seen.highWaterMark)
      figures.overflow[shape] += seen.overflow
    }
  }
}
