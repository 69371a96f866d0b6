import AsyncSignals
import Foundation

/// `timeout(_:on:raising:)` on a real `QueueScheduler`, its timer racing the source's values and end.
///
/// The interval is between 0 and 1.5 ms. Two threads send 40 values each into the source; thread 0 completes
/// it (or fails it) after a random number of them, or, in one iteration out of four, never does; in one
/// iteration out of four thread 2 disposes the subscription at a random moment. Whatever wins, there is exactly
/// one terminal event (unless disposal came first), never a timeout before the interval has passed, and a
/// timeout when the source does not end.
struct TimeoutRace: Scenario {
  static let oneTerminal =
    "exactly one terminal event — the source's completion or failure, or the timeout — unless disposed first"
  static let notEarly = "the timeout never fires before its interval has passed"
  static let values =
    "each sender's values arrive in order; every value sent before the timeout or the end could be decided arrives"
  static let cleanup = "the source subscription ends (timed out, ended, or disposed): its cleanup runs exactly once"

  let name = "Timeout"
  let race = "two threads send into a source with a 0–1.5 ms timeout; one completes it at a random moment, or never"
  let invariants = [oneTerminal, notEarly, values, cleanup, Delivery.serial, Delivery.terminal]
  let sabotage = UncancelledTimeout.description

  static let scheduler = QueueScheduler(name: "Stress.Timeout")
  static let timedOut = StressFailure(code: 99)

  func threads(requested: Int) -> Int { 3 }

  private struct Send {
    let value: Int
    let returned: ContinuousClock.Instant
  }

  func iterate(_ iteration: Iteration) {
    let count = 40
    var random = iteration.random()
    let interval = Duration.microseconds(random.below(1_500))
    let endsAt = random.oneIn(4) ? nil : random.below(count)
    let fails = random.oneIn(4)
    let disposes = random.oneIn(4)
    let source = Source<Int>()
    let terminalAt = SerialState<ContinuousClock.Instant?>(nil)  // guarded by: the subscriber's serial delivery
    let ended = Flag()
    let recorder = Recorder<Int> { _, event in
      guard event.isTerminating else { return }
      terminalAt.value = .now
      ended.set()
    }
    let start = ContinuousClock.now
    let subscription = immediately {
      iteration.isSabotaged
        ? UncancelledTimeout.subscribe(
          recorder, to: source.signal, interval: interval, scheduler: Self.scheduler, raising: Self.timedOut)
        : recorder.subscribe(to: source.signal.timeout(interval, on: Self.scheduler, raising: Self.timedOut))
    }
    let subscriber = source.subscriber
    let sends = (0..<2).map { _ in Owned<[Send]>([]) }
    let endIssued = Owned<ContinuousClock.Instant?>(nil)
    let disposeCalled = Owned<ContinuousClock.Instant?>(nil)
    iteration.race { thread, random in
      if thread == 2 {
        guard disposes else { return }
        random.dawdle(64)
        disposeCalled.value = .now
        subscription.dispose()
        iteration.count(1)
        return
      }
      for sequence in 0..<count {
        if thread == 0 && sequence == endsAt {
          endIssued.value = .now
          if fails { subscriber.sendError(StressFailure(code: 1)) } else { subscriber.sendCompleted() }
        }
        subscriber.sendNext(thread * 1_000 + sequence)
        sends[thread].value.append(Send(value: thread * 1_000 + sequence, returned: .now))
        if random.oneIn(8) { random.dawdle(4) }
      }
      iteration.count(count + 1)
    }
    if disposeCalled.value == nil && !waitUntil(seconds: 5, { ended.isSet }) {
      iteration.fail(Self.oneTerminal, "no terminal event 5 s after a \(interval) timeout was set")
    }
    // The broken twin's timer is never cancelled: let it fire before reading what it records.
    if iteration.isSabotaged { Thread.sleep(forTimeInterval: 0.02) }
    Self.scheduler.queue.sync {}  // a delivery the timer started has finished
    subscription.dispose()
    recorder.checkDelivery(iteration)
    let events = recorder.events
    if disposeCalled.value == nil {
      iteration.check(recorder.terminals == 1, Self.oneTerminal, "\(recorder.terminals) terminal events")
    }
    if events.last?.failure == Self.timedOut, let at = terminalAt.value {
      iteration.check(
        at - start >= interval, Self.notEarly, "the timeout fired \(at - start) after subscribing; interval \(interval)"
      )
    }
    let delivered = recorder.values
    for thread in 0..<2 {
      let mine = delivered.filter { $0 / 1_000 == thread }
      iteration.check(mine == mine.sorted(), Self.values, "sender \(thread)'s values arrived as \(mine)")
    }
    let decided = [start + interval, endIssued.value, disposeCalled.value].compactMap { $0 }.min()!
    let received = Set(delivered)
    for send in sends.flatMap(\.value) where send.returned < decided && !received.contains(send.value) {
      iteration.fail(Self.values, "value \(send.value) returned before the timeout or the end, yet never arrived")
      break
    }
    iteration.check(
      source.cleanups.value == 1, Self.cleanup, "the source's cleanup ran \(source.cleanups.value) times")
  }
}
