import AsyncSignals
import Dispatch

/// Flow control, issue 19's second and third hang shapes: 4 producers send from the queue the consuming actor runs on,
/// into a subject the actor reads through `.bounded(n)`.
///
/// Thread 0 starts a task that loops over a subject through a bounded buffer (n from 1 to 4) in an actor's isolation,
/// yielding now and then (each yield puts the loop behind the producers' blocks on the actor's queue), and
/// coordinates. Threads 1 to 4 produce, once the loop has subscribed, in bursts of 5 to 20 values, each burst one
/// block on a queue, dawdling between bursts:
/// - shape (b), even iterations: the actor's executor is a `QueueScheduler`, and each producer has a
///   `QueueScheduler(targetQueue:)` whose target is that scheduler's queue: its blocks run on the actor's queue;
/// - shape (c), odd iterations: the actor's executor is an ordinary custom `SerialExecutor` over a Dispatch queue
///   (not a `QueueScheduler`: the library cannot recognise it), and the producers' blocks run on that queue.
/// When every producer's last block has run, thread 0 completes the subject; the loop takes the rest and ends.
///
/// With the old contract a producer block waited for room on the queue the actor needs to take a value: the actor
/// never ran again (the broken twin hangs). Now a producer never waits: the excess is buffered and counted.
struct BoundedConsumerQueueRace: Scenario {
  static let returns =
    "every producer block runs to its end within 10 s (no producer waits for room on the consumer's queue)"
  static let lossless = "every value the subject sent is delivered exactly once, in the subject's order"
  static let ends = "the loop ends exactly once, with the subject's completion, within 10 s of it"

  let name = "BoundedConsumerQueue"
  let race =
    "4 producers send from the consuming actor's queue (a child QueueScheduler / a custom executor's queue)"
  let invariants = ["no deadlock", returns, lossless, ends, BoundedBuffer.overflowAgrees]
  let sabotage = BlockingBoundedBuffer.description

  func threads(requested: Int) -> Int { 5 }

  struct Figures {
    var highWaterMark = [0, 0]
    var overflow = [0, 0]
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "child QueueScheduler producers (b): high-water mark up to \(figures.highWaterMark[0]), "
      + "\(figures.overflow[0]) values buffered beyond the bound; custom executor's queue (c): high-water mark up to "
      + "\(figures.highWaterMark[1]), \(figures.overflow[1]) beyond the bound"
  }

  func iterate(_ iteration: Iteration) {
    if iteration.number % 2 == 0 {
      let consumer = QueueBackedActor(name: "Stress.BoundedConsumerQueue.consumer")
      let children = (0..<5).map {
        QueueScheduler(name: "Stress.BoundedConsumerQueue.producer\($0)", targetQueue: consumer.scheduler.queue)
      }
      run(iteration, consumer: consumer, shape: 0) { thread, block in children[thread].schedule(block) }
    } else {
      let consumer = DispatchExecutorActor(name: "Stress.BoundedConsumerQueue.executor")
      run(iteration, consumer: consumer, shape: 1) { _, block in consumer.executor.queue.async(execute: block) }
    }
  }

  private func run<A: Actor>(
    _ iteration: Iteration, consumer: A, shape: Int,
    onQueue: @escaping @Sendable (_ thread: Int, _ block: @escaping @Sendable () -> Void) -> Void
  ) {
    var random = iteration.random()
    let limit = 1 + random.below(4)
    let producers = 4
    let consumerSeed = random.next()
    let subject = Subject<Int, StressFailure>()
    let reference = Recorder<Int>()
    let referenceSubscription = immediately { reference.subscribe(to: subject) }
    let loop = BoundedLoop(subject, limit: limit, twin: iteration.isSabotaged ? .blocksForRoom : nil)
    let outcome = LockedBox(BoundedOutcome())
    let ended = Latch()
    let producersDone = Latch()
    let sent = Tally()
    iteration.race(withCurrentScheduler: false) { thread, random in
      guard thread == 0 else {
        guard waitUntil({ subject.subscriberCount == 2 }) else {
          iteration.fail(Self.ends, "the loop never subscribed")
          producersDone.signal()
          return
        }
        let base = thread * 100_000
        let bursts = 3 + random.below(5)
        var next = 0
        for burst in 0..<bursts {
          let values = (next..<(next + 5 + random.below(16))).map { base + $0 }
          next += values.count
          let last = burst == bursts - 1
          onQueue(thread) {
            for value in values { subject.sendNext(value) }
            sent.add(values.count)
            if last { producersDone.signal() }
          }
          random.dawdle(8)
        }
        iteration.count(next)
        return
      }
      Task.detached {
        let seen = await consume(on: consumer, loop, seed: consumerSeed)
        BoundedBuffer.record(seen, in: outcome, ended: ended)
      }
      iteration.check(
        producersDone.wait(for: producers, seconds: 10), Self.returns,
        "10 s after they began, \(sent.value) values had been sent and not every producer's last block had run")
      subject.sendCompleted()
      iteration.check(ended.wait(for: 1, seconds: 10), Self.ends, "the loop had not ended 10 s after completion")
    }
    referenceSubscription.dispose()
    let order = reference.values
    let seen = outcome.value
    BoundedBuffer.checkEndsLosslessly(
      iteration, seen, order: order, expected: sent.value, ends: Self.ends, lossless: Self.lossless)
    BoundedBuffer.checkOverflow(iteration, seen, limit: limit)
    Self.figures.withLock { figures in
      figures.highWaterMark[shape] = max(figures.highWaterMark[shape], seen.highWaterMark)
      figures.overflow[shape] += seen.overflow
    }
  }
}

/// The loop, in `actor`'s isolation: every value is taken on the actor's executor, and each yield queues the loop
/// behind the blocks already on the actor's queue.
private func consume<A: Actor>(on actor: isolated A, _ loop: BoundedLoop, seed: UInt64) async -> BoundedOutcome {
  var random = SplitMix(seed: seed)
  var seen = BoundedOutcome()
  var iterator = loop.makeIterator()
  do throws(StressFailure) {
    while let value = try await iterator.next(isolation: actor) {
      seen.values.append(value)
      if random.oneIn(2) {
        for _ in 0..<random.below(4) { await Task.yield() }
      }
    }
  } catch {
    seen.failure = error.code
  }
  seen.highWaterMark = iterator.highWaterMark
  seen.overflow = iterator.overflowCount
  return seen
}
