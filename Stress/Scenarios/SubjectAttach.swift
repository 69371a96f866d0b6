import AsyncSignals

#if canImport(Glibc)
import Glibc
#endif

/// A sender that waits for a subject's `subscriberCount`, then sends, against a subscriber attaching on another
/// thread (issue 26).
///
/// The user's shape: a producer thread waits until the subject counts a subscriber, then sends. From the moment the
/// subject's state records a subscriber (what `subscriberCount` reads), every later send must reach it, even while
/// its `subscribe` call has not returned yet. The threads pair up: in each trial one subscribes to a fresh subject,
/// the other spins on the count and then sends 50 values; all 50 must arrive. The window this closes is a few
/// instructions wide: run it pinned to one CPU beside a busy thread (`taskset -c 0`, the Guarantees article), where a
/// preemption inside it is likely, to see the broken twin lose values.
struct SubjectAttachRace: Scenario {
  static let served =
    "every value sent after subscriberCount counted the subscriber reaches it (a subscriber counted is served)"

  let name = "SubjectAttach"
  let race = "a thread subscribes to a fresh subject while another waits for subscriberCount, then sends 50 values"
  let invariants = [Delivery.serial, served]
  let sabotage = LateListSubject.description

  func threads(requested: Int) -> Int { max(2, requested - requested % 2) }

  /// Trials per pair of threads in one iteration, and values per trial.
  static let trials = 40
  static let values = 50

  /// Trials run and trials that lost a value, over the whole run.
  static let trialCount = Tally()
  static let lossCount = Tally()

  var report: String? { "\(Self.lossCount.value) of \(Self.trialCount.value) trials lost a value" }

  func iterate(_ iteration: Iteration) {
    let pairs = iteration.threads / 2
    let subjects: [[any HotSignal]] = (0..<pairs).map { _ in
      (0..<Self.trials).map { _ in
        iteration.isSabotaged ? LateListSubject() : Subject<Int, StressFailure>() as any HotSignal
      }
    }
    let recorders = (0..<pairs).map { _ in (0..<Self.trials).map { _ in Recorder<Int>() } }
    // The subscriber of trial t disposes only once its sender has finished trial t.
    let sent = (0..<pairs).map { _ in Tally() }  // trials the pair's sender has finished
    iteration.race { thread, random in
      let pair = thread / 2
      if thread % 2 == 0 {
        for trial in 0..<Self.trials {
          if random.oneIn(2) { random.dawdle(2) }
          let disposable = subjects[pair][trial].subscribe(recorders[pair][trial])
          while sent[pair].value <= trial { sched_yield() }
          disposable.dispose()
        }
        iteration.count(Self.trials)
      } else {
        for trial in 0..<Self.trials {
          let subject = subjects[pair][trial]
          // Half the trials spin flat out, as a user's `while subject.subscriberCount == 0 {}` does: pinned to one
          // CPU, such a spinner is preempted inside the count's lock, and wakes first when the subscriber unlocks.
          if random.oneIn(2) {
            while subject.subscriberCount == 0 {}
          } else {
            while subject.subscriberCount == 0 { sched_yield() }
          }
          for value in 0..<Self.values { subject.sendNext(value) }
          sent[pair].increment()
        }
        iteration.count(Self.trials * Self.values)
      }
    }
    for (pair, list) in recorders.enumerated() {
      for (trial, recorder) in list.enumerated() {
        recorder.checkDelivery(iteration)
        Self.trialCount.increment()
        let values = recorder.values
        if values != Array(0..<Self.values) {
          Self.lossCount.increment()
          iteration.fail(
            Self.served,
            "pair \(pair), trial \(trial): received \(values.count) of \(Self.values) values, "
              + "first \(values.first ?? -1)")
        }
      }
    }
  }
}
