import AsyncSignals

// A shape that deadlocked while each subscriber of a subject had its own delivery lock: a callback that sent into
// the subject had to take the other subscriber's lock, which the other thread held while its callback sent into the
// subject too. Subjects now deliver in turns under one recursive lock per subject, and a send from inside a turn
// is queued behind the value in progress (SubjectStorage.swift), so the two threads no longer wait for each
// other. Run by default. It has no broken twin: its invariant is the watchdog's, which the Hanging self-check and
// ZipReentrant's lock-holding zip already prove. (ZipCrossFeed, a cycle through two zips, still deadlocks.)

/// Two subscribers of one subject whose callbacks send into the subject, while two threads send.
struct SubjectEchoRace: Scenario {
  let name = "SubjectEcho"
  let race = "two subscribers of one subject send an echo into it from their callbacks; two threads send"
  let invariants = ["no deadlock"]
  let sabotage = "none: the watchdog's own self-check covers a deadlock"

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
