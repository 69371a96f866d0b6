import AsyncSignals

/// Zip's locking with N producers: nested `zip(with:)`, one source per thread.
struct ZipNestedRace: Scenario {
  static let tuples = "every tuple is delivered exactly once, in index order, none lost"

  let name = "ZipNested"
  let race = "N producers, one per thread, zipped by nesting zip(with:); each sends 100 values and completes"
  let invariants = [tuples, ZipRace.completion, ZipRace.cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenZip.description

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let count = 100
    let sources = (0..<iteration.threads).map { _ in Source<Int>() }
    let zipper = Zipper(isSabotaged: iteration.isSabotaged)
    var zipped = sources[0].signal.map { [$0] }
    for source in sources.dropFirst() {
      zipped = zipper.zip(zipped, source.signal).map { $0 + [$1] }
    }
    let recorder = Recorder<[Int]>()
    let subscription = immediately { recorder.subscribe(to: zipped) }
    iteration.race { thread, random in
      let subscriber = sources[thread].subscriber
      for value in 0..<count {
        subscriber.sendNext(value)
        if random.oneIn(32) { random.dawdle(2) }
      }
      subscriber.sendCompleted()
      iteration.count(count + 1)
    }
    recorder.checkDelivery(iteration)
    let values = recorder.values
    let width = sources.count
    if let wrong = values.indices.first(where: { values[$0] != Array(repeating: $0, count: width) }) {
      iteration.fail(Self.tuples, "tuple #\(wrong) is \(values[wrong])")
    }
    iteration.check(values.count == count, Self.tuples, "\(values.count) tuples of \(count) delivered")
    iteration.check(
      recorder.isCompleted && recorder.terminals == 1, ZipRace.completion,
      "events end with \(String(describing: recorder.events.last)), \(recorder.terminals) terminal events")
    let cleanups = sources.map(\.cleanups.value)
    iteration.check(cleanups.allSatisfy { $0 == 1 }, ZipRace.cleanup, "cleanups ran \(cleanups) times")
    subscription.dispose()
  }
}
