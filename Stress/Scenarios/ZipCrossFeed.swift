import AsyncSignals

// A shape that deadlocks today, by design rather than by accident (so is SubjectEcho): not run by default, one
// command away (`--scenario ZipCrossFeed --watchdog 3`). Serial delivery makes a sender on another thread wait
// until the event in progress has been handled (guarantee 1, as RAC 2.5), so a callback that sends into a
// subscription whose delivery lock another thread holds waits for that thread; when that thread's callback in turn
// sends into the first subscription, the two wait for each other. Operators built on the outbox (zip, bind) release
// their own lock before delivering, but the drain still runs inside the upstream subscription's delivery lock.
// Guarantee 6 holds for re-entrancy on one thread; across threads these cycles deadlock in RAC 2.5 too. Removing
// them needs non-blocking serial delivery (queue the event for the thread that holds the lock), which changes
// guarantee 1.

/// Two zips whose callbacks send into each other's sources, while every source has its own sender.
struct ZipCrossFeedRace: Scenario {
  let name = "ZipCrossFeed"
  let race = "zip(a, b)'s callback sends into c, zip(c, d)'s into a; four threads send into a, b, c, d"
  let invariants = ["no deadlock"]
  let sabotage = "none: this shape deadlocks with the library as it is"
  let knownFailure: String? = "deadlocks: a cross-thread cycle through the zips' upstream delivery locks"

  func threads(requested: Int) -> Int { 4 }

  func iterate(_ iteration: Iteration) {
    let subjects = (0..<4).map { _ in Subject<Int, StressFailure>() }
    let feeds = [
      subjects[0].zip(with: subjects[1]).subscribeNext(
        { pair in if pair.0 < 1_000 { subjects[2].sendNext(pair.0 + 1_000) } }, error: { _ in }),
      subjects[2].zip(with: subjects[3]).subscribeNext(
        { pair in if pair.0 < 1_000 { subjects[0].sendNext(pair.0 + 1_000) } }, error: { _ in }),
    ]
    iteration.race { thread, _ in
      for value in 0..<200 { subjects[thread].sendNext(value) }
      iteration.count(200)
    }
    for feed in feeds { feed.dispose() }
  }
}
