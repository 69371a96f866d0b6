import AsyncSignals
import Synchronization

/// `autoconnect()`'s reference count under concurrent first subscriptions and disposals — also a deadlock shape
/// peer libraries shipped: concurrent first subscriptions to an autoconnected signal whose upstream sends while
/// it is being subscribed.
///
/// The upstream `create` body sends three values synchronously; the connection multicasts through a `Subject`
/// (even iterations) or a `ReplaySubject(capacity: 1)` (odd ones), which replays under its delivery lock. All but
/// one thread subscribe at the same moment (the first subscriptions), wait until every one of them has, then
/// subscribe and dispose extra subscriptions and finally dispose their first; half the subscribers subscribe
/// once more from inside their first callback. The last thread sends 100 more values upstream. Between the
/// first subscriptions and the last disposal the count never drops to 0, so the upstream subscription must be
/// live throughout, and ended once it does — and a subscription afterwards must not reconnect (RAC's
/// `-autoconnect`).
struct AutoconnectRace: Scenario {
  static let once = "the upstream is subscribed exactly once, however many first subscriptions race; never again"
  static let live = "while the count is above 0, the upstream subscription is live"
  static let released = "when the count returns to 0, the upstream subscription is disposed, exactly once"
  static let run = "each subscriber receives a gap-free, in-order run of the upstream's values"

  let name = "Autoconnect"
  let race = "threads subscribe to an autoconnected signal at once, subscribe and dispose more, then dispose all"
  let invariants = ["no deadlock", once, live, released, run, Delivery.serial]
  let sabotage = BrokenAutoconnect.description

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let rounds = 6
    let later = 100
    let bodies = Tally()
    let active = Tally()
    let cleanups = Tally()
    let upstreamSubscriber = LockedBox<(any Subscriber<Int, StressFailure>)?>(nil)
    let upstream = Signal<Int, StressFailure>.create { subscriber in
      bodies.increment()
      active.increment()
      for value in 0..<3 { subscriber.sendNext(value) }
      upstreamSubscriber.value = subscriber  // after those three: the upstream's values are in one order
      return ActionDisposable {
        active.decrement()
        cleanups.increment()
      }
    }
    let replays = iteration.number % 2 == 1
    let autoconnected =
      iteration.isSabotaged
      ? BrokenAutoconnect.autoconnect(upstream)
      : (replays ? upstream.multicast(ReplaySubject<Int, StressFailure>(capacity: 1)) : upstream.publish())
        .autoconnect()
    let subscribers = iteration.threads - 1
    let firstSubscribed = Tally()
    let recorders = (0..<iteration.threads).map { _ in Owned<[Recorder<Int>]>([]) }
    let nested = LockedBox<[(recorder: Recorder<Int>, subscription: any Disposable)]>([])
    iteration.race { thread, random in
      if thread == subscribers {
        guard waitUntil({ upstreamSubscriber.value != nil }) else { return }
        let subscriber = upstreamSubscriber.value!
        for value in 3..<(3 + later) {
          subscriber.sendNext(value)
          if random.oneIn(16) { random.dawdle(2) }
        }
        iteration.count(later)
        return
      }
      let resubscribes = random.oneIn(2)
      func recorder() -> Recorder<Int> {
        let recorder = Recorder<Int>(reaction: { recorder, _ in
          guard resubscribes, recorder.log.value.count == 1 else { return }
          let inner = Recorder<Int>()
          nested.withLock { $0.append((inner, inner.subscribe(to: autoconnected))) }
        })
        recorders[thread].value.append(recorder)
        return recorder
      }
      let first = recorder().subscribe(to: autoconnected)
      firstSubscribed.increment()
      while firstSubscribed.value < subscribers { random.dawdle(1) }
      iteration.check(
        bodies.value == 1 && active.value == 1, Self.live,
        "after the first subscriptions: upstream subscribed \(bodies.value) times, \(active.value) live")
      for _ in 0..<rounds {
        let extra = recorder().subscribe(to: autoconnected)
        random.dawdle(4)
        extra.dispose()
      }
      iteration.check(
        active.value == 1, Self.live, "\(active.value) upstream subscriptions live while this thread's first is")
      for (_, subscription) in nested.value { subscription.dispose() }
      random.dawdle(8)
      first.dispose()
      iteration.count(2 * rounds + 2)
    }
    for (_, subscription) in nested.value { subscription.dispose() }
    iteration.check(
      cleanups.value == 1 && active.value == 0, Self.released,
      "after every disposal: the upstream cleanup ran \(cleanups.value) times, \(active.value) live")
    let afterwards = Recorder<Int>()
    immediately { afterwards.subscribe(to: autoconnected) }.dispose()
    iteration.check(bodies.value == 1, Self.once, "the upstream was subscribed \(bodies.value) times")
    for recorder in recorders.flatMap(\.value) + nested.value.map(\.recorder) {
      recorder.checkDelivery(iteration)
      let values = recorder.values
      if let first = values.first, values != Array(first..<(first + values.count)) {
        iteration.fail(Self.run, "a subscriber received \(values)")
        break
      }
    }
  }
}
