import AsyncSignals

/// A deadlock shape peer libraries shipped: `zip` of two `replayLast()` signals, cut short by `take(1)`, whose
/// disposal runs inside a delivery while the other side's sender delivers into the same zip.
///
/// Two threads send into two subjects, each shared through `replayLast()`. The other threads subscribe to
/// `zip(a, b).skip(1).take(1)` (or `zip(b, a)`, swapped back) over and over: the replays make the first pair at
/// once, and the second pair is made by a sender's live value, on that sender's thread — where `take(1)` then
/// disposes the zip and its subscriptions to both replaying subjects, while the other sender may be delivering
/// into the zip. A zip that delivers under its lock, over replaying subjects whose disposal takes their lock,
/// deadlocks there (the sabotage); the library's zip delivers with its lock released, and disposal never waits
/// for a delivery lock.
struct ZipReplayTakeRace: Scenario {
  static let onePair =
    "each subscription receives nothing, or exactly one pair of values sent on their sides, then completion"
  static let released = "every subscription ends: the replaying subjects have no subscriber left"

  let name = "ZipReplayTake"
  let race = "two threads send into two replayLast() signals; the others subscribe to zip(a, b).skip(1).take(1)"
  let invariants = ["no deadlock", onePair, released, Delivery.serial, Delivery.terminal]
  let sabotage = LockingReplayLast.description

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let values = 300
    let rounds = 8
    let subjects = [Subject<Int, StressFailure>(), Subject<Int, StressFailure>()]
    let twins = iteration.isSabotaged ? subjects.map(LockingReplayLast.init) : nil
    let shared = twins?.map(\.signal) ?? subjects.map { $0.replayLast() }
    for (side, subject) in subjects.enumerated() { subject.sendNext(side) }
    let sendersDone = Tally()
    let recorders = (0..<iteration.threads).map { _ in Owned<[(recorder: Recorder<(Int, Int)>, done: Flag)]>([]) }
    let clock = EpochClock()
    iteration.race { thread, random in
      if thread < 2 {
        for _ in 0..<values {
          subjects[thread].sendNext(clock.tick() * 2 + thread)
          if random.oneIn(16) { random.dawdle(2) }
        }
        sendersDone.increment()
        iteration.count(values)
        return
      }
      for round in 0..<rounds {
        let swapped = round % 2 == 1
        let zipped =
          swapped
          ? zip(shared[1], shared[0], sabotaged: iteration.isSabotaged).map { ($1, $0) }
          : zip(shared[0], shared[1], sabotaged: iteration.isSabotaged)
        let done = Flag()
        let recorder = Recorder<(Int, Int)> { _, event in if event.isTerminating { done.set() } }
        recorders[thread].value.append((recorder, done))
        let subscription = recorder.subscribe(to: zipped.skip(1).take(1))
        _ = waitUntil { done.isSet || sendersDone.value == 2 }
        subscription.dispose()
      }
      iteration.count(2 * rounds)
    }
    for (recorder, _) in recorders.flatMap(\.value) {
      recorder.checkDelivery(iteration)
      let events = recorder.events
      guard !events.isEmpty else { continue }
      let pair = events.first?.value
      iteration.check(
        events.count == 2 && events[1].isCompleted && pair.map { $0.0 % 2 == 0 && $0.1 % 2 == 1 } == true,
        Self.onePair, "a subscription received \(events)")
    }
    let left =
      twins.map { $0.map(\.subscriberCount) }
      ?? shared.map { ($0 as? ReplaySubject<Int, StressFailure>)?.subscriberCount ?? -1 }
    iteration.check(left == [0, 0], Self.released, "the replaying subjects have \(left) subscribers left")
    // replayLast() stays connected to its source until the source ends (as RAC's does): end them, or the
    // connections, which retain their replay subjects, outlive the iteration (LeakSanitizer would say so).
    for subject in subjects { subject.sendCompleted() }
  }

  private func zip(_ a: Signal<Int, StressFailure>, _ b: Signal<Int, StressFailure>, sabotaged: Bool) -> Signal<
    (Int, Int), StressFailure
  > {
    sabotaged ? LockHoldingZip.zip(a, b) : a.zip(with: b)
  }
}
