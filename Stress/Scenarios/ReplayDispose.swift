import AsyncSignals

/// A subscriber object that records into a `Recorder` and publishes the subscription's disposable as soon as
/// `subscribe(_:)` hands it over — before the first event, so that another thread can dispose the subscription
/// while its replay is still in progress.
final class RecordingSubscriber: Subscriber {
  let recorder: Recorder<Int>
  let disposable = Slots<any Disposable>(capacity: 1)

  init(_ recorder: Recorder<Int>) { self.recorder = recorder }

  func didSubscribe(with disposable: any Disposable) { self.disposable.publish(disposable) }
  func sendNext(_ value: Int) { recorder.record(.next(value)) }
  func sendError(_ error: StressFailure) { recorder.record(.error(error)) }
  func sendCompleted() { recorder.record(.completed) }
}

/// What the race needs of a replay subject: the library's and the broken twin.
protocol DisposableReplay: Sendable {
  func sendNext(_ value: Int)
  /// Subscribes `subscriber`, which receives the disposable before the replay starts.
  func subscribe(_ subscriber: RecordingSubscriber) -> any Disposable
  var subscriberCount: Int { get }
}

extension ReplaySubject: DisposableReplay where Value == Int, Failure == StressFailure {
  func subscribe(_ subscriber: RecordingSubscriber) -> any Disposable {
    (self as Signal<Int, StressFailure>).subscribe(subscriber)
  }
}

/// A deadlock shape peer libraries shipped: a replay, run under the subject's delivery lock, while another
/// thread disposes the replaying subscription (and another one).
///
/// The subject holds 40 values. Thread 0 subscribes; at the tenth replayed value the callback stops and waits for
/// thread 1 to dispose that very subscription — and, first, an older subscription — before going on. Thread 0
/// subscribes a `Subscriber` object, which receives the disposable before the replay, run on thread 0 (at once,
/// whether the race has a current scheduler, on even iterations, or none, on odd ones). A subject
/// whose disposal took the delivery lock (as a peer's did) would make thread 1 wait for thread 0, which waits for
/// thread 1: the callback gives up after 5 s and reports it. The other threads send into the subject and
/// subscribe to it meanwhile (they do wait for the replay in progress: senders wait, guarantee 1).
struct ReplayDisposeRace: Scenario {
  static let disposeReturns =
    "dispose() returns while another thread's replay is in progress (disposal never waits for the delivery lock)"
  static let replayStops = "once dispose() has returned, the replaying subscriber receives nothing more"
  static let afterDispose = "no value sent after dispose() returned reaches a disposed subscriber"
  static let count = "the subject forgets every disposed subscriber: subscriberCount returns to 0"

  let name = "ReplayDispose"
  let race = "thread 1 disposes a subscription while thread 0 is inside its replay; others send and subscribe"
  let invariants = ["no deadlock", disposeReturns, replayStops, afterDispose, count, Delivery.serial]
  let sabotage = LockingReplaySubject.description

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let stored = 40
    let stopAt = 10
    let subject: any DisposableReplay =
      iteration.isSabotaged ? LockingReplaySubject() : ReplaySubject<Int, StressFailure>()
    for value in 0..<stored { subject.sendNext(value) }
    let clock = EpochClock()
    let replaying = Flag()
    let disposed = Flag()
    let older = RecordingSubscriber(Recorder<Int>())
    _ = immediately { subject.subscribe(older) }
    let replayer = RecordingSubscriber(
      Recorder<Int> { recorder, _ in
        guard recorder.log.value.count == stopAt else { return }
        replaying.set()
        if !waitUntil(seconds: 5, { disposed.isSet }) {
          iteration.fail(Self.disposeReturns, "dispose() had not returned 5 s after the replay stopped for it")
        }
      })
    let olderDisposeReturned = Owned(Int.max)
    let background = iteration.number % 2 == 1
    iteration.race(withCurrentScheduler: !background) { thread, random in
      switch thread {
      case 0:
        _ = subject.subscribe(replayer)
        iteration.count(1)
      case 1:
        while !replaying.isSet || replayer.disposable.count == 0 { random.dawdle(1) }
        older.disposable[0].dispose()
        olderDisposeReturned.value = clock.tick()
        replayer.disposable[0].dispose()
        disposed.set()
        iteration.count(2)
      default:
        for round in 0..<20 {
          if round % 4 == 0 {
            let extra = RecordingSubscriber(Recorder<Int>())
            subject.subscribe(extra).dispose()
          }
          subject.sendNext(1_000 + clock.tick())
          if random.oneIn(4) { random.dawdle(2) }
        }
        iteration.count(25)
      }
    }
    replayer.recorder.checkDelivery(iteration, "the replaying subscriber")
    older.recorder.checkDelivery(iteration, "the older subscriber")
    let received = replayer.recorder.events.count
    iteration.check(
      received == stopAt, Self.replayStops,
      "the replaying subscriber received \(received) events; dispose returned during event #\(stopAt)")
    for value in older.recorder.values where value >= 1_000 && value - 1_000 > olderDisposeReturned.value {
      iteration.fail(
        Self.afterDispose, "value sent at \(value - 1_000) arrived; dispose returned at \(olderDisposeReturned.value)")
      break
    }
    iteration.check(
      subject.subscriberCount == 0, Self.count, "\(subject.subscriberCount) subscribers left after every disposal")
  }
}
