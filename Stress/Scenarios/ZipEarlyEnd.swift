import AsyncSignals

/// Zip with one side ending mid-stream while the other is still sending.
struct ZipEarlyEndRace: Scenario {
  static let completedPairs = "when the short side completes after m values, exactly m pairs are delivered, in order"
  static let failedPairs = "when the short side fails, the pairs delivered are an in-order prefix, then the failure"

  let name = "ZipEarlyEnd"
  let race = "one side sends 200 values; the other sends m < 200, then completes or fails, mid-stream"
  let invariants = [completedPairs, failedPairs, ZipRace.cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenZip.description

  func threads(requested: Int) -> Int { 2 }

  func iterate(_ iteration: Iteration) {
    let count = 200
    var random = iteration.random()
    let shortSide = random.below(2)
    let shortCount = random.below(count)
    let fails = random.oneIn(3)
    let left = Source<Int>()
    let right = Source<Int>()
    let recorder = Recorder<(Int, Int)>()
    let subscription = immediately {
      recorder.subscribe(to: Zipper(isSabotaged: iteration.isSabotaged).zip(left.signal, right.signal))
    }
    iteration.race { thread, random in
      let side = thread == 0 ? left.subscriber : right.subscriber
      let isShort = thread == shortSide
      for value in 0..<(isShort ? shortCount : count) {
        side.sendNext(value)
        if random.oneIn(32) { random.dawdle(2) }
      }
      if isShort && fails {
        side.sendError(StressFailure(code: 1))
      } else {
        side.sendCompleted()
      }
      iteration.count((isShort ? shortCount : count) + 1)
    }
    recorder.checkDelivery(iteration)
    let values = recorder.values
    let invariant = fails ? Self.failedPairs : Self.completedPairs
    if let wrong = values.indices.first(where: { values[$0] != ($0, $0) }) {
      iteration.fail(invariant, "pair #\(wrong) is \(values[wrong])")
    }
    if fails {
      iteration.check(
        values.count <= shortCount && recorder.events.last?.failure == StressFailure(code: 1)
          && recorder.terminals == 1, invariant,
        "\(values.count) pairs (short side sent \(shortCount)), then \(String(describing: recorder.events.last))")
    } else {
      iteration.check(
        values.count == shortCount && recorder.isCompleted && recorder.terminals == 1, invariant,
        "\(values.count) pairs (short side sent \(shortCount)), then \(String(describing: recorder.events.last))")
    }
    iteration.check(
      left.cleanups.value == 1 && right.cleanups.value == 1, ZipRace.cleanup,
      "cleanups ran \(left.cleanups.value) and \(right.cleanups.value) times")
    subscription.dispose()
  }
}
