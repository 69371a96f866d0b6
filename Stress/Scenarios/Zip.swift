import AsyncSignals

/// The zip under test: the library's `zip(with:)`, or the broken twin of `--sabotage`.
struct Zipper: Sendable {
  let isSabotaged: Bool

  func zip<A: Sendable, B: Sendable>(_ a: Signal<A, StressFailure>, _ b: Signal<B, StressFailure>) -> Signal<
    (A, B), StressFailure
  > {
    isSabotaged ? BrokenZip.zip(a, b) : a.zip(with: b)
  }
}

/// Zip's locking with two producers on two threads.
struct ZipRace: Scenario {
  static let pairs = "every pair is delivered exactly once, in index order, none lost"
  static let completion = "completion is delivered exactly once, after the last pair"
  static let cleanup = "both upstream subscriptions end: each cleanup runs exactly once"

  let name = "Zip"
  let race = "two producers, one per side, each send 200 values and complete"
  let invariants = [pairs, completion, cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenZip.description

  func threads(requested: Int) -> Int { 2 }

  func iterate(_ iteration: Iteration) {
    let count = 200
    let left = Source<Int>()
    let right = Source<Int>()
    let recorder = Recorder<(Int, Int)>()
    let subscription = immediately {
      recorder.subscribe(to: Zipper(isSabotaged: iteration.isSabotaged).zip(left.signal, right.signal))
    }
    iteration.race { thread, random in
      let side = thread == 0 ? left.subscriber : right.subscriber
      for value in 0..<count {
        side.sendNext(value)
        if random.oneIn(32) { random.dawdle(2) }
      }
      side.sendCompleted()
      iteration.count(count + 1)
    }
    recorder.checkDelivery(iteration)
    let values = recorder.values
    if let wrong = values.indices.first(where: { values[$0] != ($0, $0) }) {
      iteration.fail(Self.pairs, "pair #\(wrong) is \(values[wrong])")
    }
    iteration.check(values.count == count, Self.pairs, "\(values.count) pairs of \(count) delivered")
    iteration.check(
      recorder.isCompleted && recorder.terminals == 1, Self.completion,
      "events end with \(String(describing: recorder.events.last)), \(recorder.terminals) terminal events")
    iteration.check(
      left.cleanups.value == 1 && right.cleanups.value == 1, Self.cleanup,
      "cleanups ran \(left.cleanups.value) and \(right.cleanups.value) times")
    subscription.dispose()
  }
}
