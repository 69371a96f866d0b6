import AsyncSignals
import Foundation

/// A deadlock shape peer libraries shipped: a merge's inner completes (or sends) while its sender holds a lock
/// that the merge's subscriber takes in its callback.
///
/// Each thread owns one inner of `Signal.merge` and sends 100 values into it, then completes it; every few
/// values, and for one completion in two, it does so while holding a foreign `NSRecursiveLock`. The subscriber's
/// callback takes that lock for every fourth value. A merge that made a sender wait for the delivery in progress
/// (RAC 2.5's, whose subscriber serialises by blocking) deadlocks: the deliverer's callback waits for the lock,
/// whose holder waits for the deliverer. The library's merge queues a sender's event behind the delivery in
/// progress and returns, so the holder goes on and releases the lock. (Each inner has one sender: two threads
/// sending into one `create` subscriber while one holds the lock would be a cycle through that subscriber's own
/// delivery lock — guarantee 1's "senders wait", a known limitation.)
///
/// The callback's lock orders some callbacks with some senders for ThreadSanitizer; the Merge scenario checks
/// the same operator without it.
struct MergeForeignLockRace: Scenario {
  static let values = "every value arrives exactly once, each inner's in the order sent"
  static let completion = "completion arrives exactly once, after every value of every inner"

  let name = "MergeForeignLock"
  let race = "each thread sends into and completes its own inner of a merge, often holding a lock the callback takes"
  let invariants = ["no deadlock", values, completion, Delivery.serial, Delivery.terminal]
  let sabotage = BlockingMerge.description

  func threads(requested: Int) -> Int { max(2, requested) }

  func iterate(_ iteration: Iteration) {
    let count = 100
    let threads = iteration.threads
    let foreign = NSRecursiveLock()
    let inners = (0..<threads).map { _ in Source<Int>() }
    let merged =
      iteration.isSabotaged ? BlockingMerge.merge(inners.map(\.signal)) : Signal.merge(inners.map(\.signal))
    let recorder = Recorder<Int> { _, event in
      guard let value = event.value, value % 4 == 0 else { return }
      foreign.lock()
      foreign.unlock()
    }
    let subscription = immediately { recorder.subscribe(to: merged) }
    let subscribers = inners.map(\.subscriber)
    iteration.race { thread, random in
      let subscriber = subscribers[thread]
      var sequence = 0
      while sequence < count {
        let holding = random.oneIn(4)
        if holding { foreign.lock() }
        for _ in 0...random.below(3) where sequence < count {
          subscriber.sendNext(thread * 10_000 + sequence)
          sequence += 1
        }
        if holding { foreign.unlock() }
        if random.oneIn(16) { random.dawdle(2) }
      }
      if random.oneIn(2) {
        foreign.lock()
        subscriber.sendCompleted()
        foreign.unlock()
      } else {
        subscriber.sendCompleted()
      }
      iteration.count(count + 1)
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    var next = Array(repeating: 0, count: threads)
    for value in recorder.values {
      let (inner, sequence) = value.quotientAndRemainder(dividingBy: 10_000)
      if sequence != next[inner] {
        iteration.fail(Self.values, "inner \(inner): \(sequence) arrived when \(next[inner]) was due")
        return
      }
      next[inner] += 1
    }
    iteration.check(
      next.allSatisfy { $0 == count } && recorder.isCompleted && recorder.terminals == 1, Self.completion,
      "values per inner \(next) of \(count), then \(String(describing: recorder.events.last))")
  }
}
