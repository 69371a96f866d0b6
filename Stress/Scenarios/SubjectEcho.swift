import AsyncSignals

// A shape that deadlocks today, by design rather than by accident (so is ZipCrossFeed): not run by default, one
// command away (`--scenario SubjectEcho --watchdog 3`). Serial delivery makes a sender on another thread wait until
// the event in progress has been handled (guarantee 1, as RAC 2.5), so a callback that sends into a subscription
// whose delivery lock another thread holds waits for that thread; when that thread's callback in turn sends into
// the first subscription, the two wait for each other. Operators built on the outbox (zip, bind) release their own
// lock before delivering, but the drain still runs inside the upstream subscription's delivery lock. Guarantee 6
// holds for re-entrancy on one thread; across threads these cycles deadlock in RAC 2.5 too. Removing them needs
// non-blocking serial delivery (queue the event for the thread that holds the lock), which changes guarantee 1.

/// Two subscribers of one subject whose callbacks send into the subject, while two threads send.
struct SubjectEchoRace: Scenario {
  let name = "SubjectEcho"
  let race = "two subscribers of one subject send an echo into it from their callbacks; two threads send"
  let invariants = ["no deadlock"]
  let sabotage = "none: this shape deadlocks with the library as it is"
  let knownFailure: String? = "deadlocks: a cross-thread cycle through two subscribers' delivery locks"

  func threads(requested: Int) -> Int { 2 }

  func iterate(_ iteration: Iteration) {
    let subject = Subject<Int, StressFailure>()
    let echoes = (1...2).map { echo in
      subject.subscribeNext({ value in if value < 1_000 { subject.sendNext(value + echo * 1_000) } }, error: { _ in })
    }
    iteration.race { _, _ in
      for value in 0..<200 { subject.sendNext(value) }
      iteration.count(200)
    }
    for echo in echoes { echo.dispose() }
  }
}
