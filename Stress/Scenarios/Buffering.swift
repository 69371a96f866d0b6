import AsyncSignals
import AsyncSignalsInterop

/// Interop: `values(bufferingPolicy:onDrop:)` under concurrent producers and a slow consumer.
///
/// A subject's order is recorded by a reference subscriber. Thread 0 starts a task that loops over the subject's
/// values with the iteration's policy — unbounded, `bufferingNewest(n)` or `bufferingOldest(n)`, n from 0 to 4 —
/// yielding now and then, and waits for it to end. Once the task has subscribed, the other threads send 150
/// values each, and the last to finish completes the subject. Every value the subject sent must be either
/// delivered to the loop or reported dropped (to `onDrop` and in `droppedCount`), never both, each list in the
/// subject's order.
struct BufferingRace: Scenario {
  static let partition =
    "delivered + dropped == sent: each value the subject sent is delivered or reported dropped, never both"
  static let order = "the delivered values, and the dropped ones, each keep the subject's order"
  static let counted = "droppedCount equals the number of values passed to onDrop (0 when unbounded)"
  static let newest = "bufferingNewest(n > 0) never drops the newest value"
  static let ends = "the loop ends exactly once, with the subject's completion"

  let name = "Buffering"
  let race = "producers send into a subject that a slow for-await loop consumes through a bounded buffer"
  let invariants = [partition, order, counted, newest, ends]
  let sabotage = UncountedStream.description

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let values = 150
    var random = iteration.random()
    let limit = random.below(5)
    let policy: SignalBufferingPolicy =
      [.unbounded, .bufferingNewest(limit), .bufferingOldest(limit)][iteration.number % 3]
    let subject = Subject<Int, StressFailure>()
    let reference = Recorder<Int>()
    let referenceSubscription = immediately { reference.subscribe(to: subject) }
    let dropped = SerialState<[Int]>([])  // guarded by: the subject's serial delivery (onDrop runs inside it)
    let sequence = subject.values(bufferingPolicy: policy) { dropped.value.append($0) }
    let outcome = LockedBox<(values: [Int], failure: Int?, ends: Int)>(([], nil, 0))
    let ended = Latch()
    let producers = iteration.threads - 1
    let finished = Tally()
    let sabotaged = iteration.isSabotaged
    var seeds = iteration.random(thread: 99)
    let consumerSeed = seeds.next()
    iteration.race(withCurrentScheduler: false) { thread, random in
      if thread == 0 {
        Task.detached {
          var random = SplitMix(seed: consumerSeed)
          let result =
            sabotaged
            ? await Self.consume(UncountedStream.values(of: subject, policy: policy), &random)
            : await Self.consume(sequence, &random)
          outcome.withLock { $0 = (result.values, result.failure, $0.ends + 1) }
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
    let drops = dropped.value
    let counted = sabotaged ? 0 : sequence.droppedCount
    iteration.check(
      counted == drops.count, Self.counted, "droppedCount is \(counted); onDrop received \(drops.count) values")
    if policy == .unbounded {
      iteration.check(drops.isEmpty, Self.counted, "unbounded, yet \(drops.count) values dropped")
    }
    iteration.check(
      delivered.count + drops.count == order.count && Set(delivered).isDisjoint(with: drops)
        && Set(delivered).union(drops) == Set(order), Self.partition,
      "\(delivered.count) delivered + \(drops.count) dropped, \(order.count) sent (policy \(policy))")
    let positionInOrder = positions(of: order)
    for (name, list) in [("delivered", delivered), ("dropped", drops)] {
      let indices = list.map { positionInOrder[$0] ?? -1 }
      if indices.contains(-1) || zip(indices, indices.dropFirst()).contains(where: { $0 >= $1 }) {
        iteration.fail(Self.order, "the \(name) values are out of the subject's order (policy \(policy))")
      }
    }
    if case .bufferingNewest(let limit) = policy, limit > 0, let last = order.last {
      iteration.check(delivered.last == last, Self.newest, "the newest value \(last) was dropped (policy \(policy))")
    }
  }

  /// Loops over `sequence`, yielding to other tasks now and then so that the buffer fills.
  private static func consume<S: AsyncSequence>(_ sequence: S, _ random: inout SplitMix) async -> (
    values: [Int], failure: Int?
  ) where S.Element == Int {
    var values: [Int] = []
    do {
      for try await value in sequence {
        values.append(value)
        if random.oneIn(4) {
          for _ in 0..<random.below(8) { await Task.yield() }
        }
      }
      return (values, nil)
    } catch {
      return (values, (error as? StressFailure)?.code ?? .min)
    }
  }
}
