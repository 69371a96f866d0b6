import AsyncSignals

/// What the race needs of a replaying subject: the library's `ReplaySubject` and `BehaviorSubject`, and the
/// broken twin.
protocol ReplayingSubject: Sendable {
  /// How many values it replays (`Int.max`: all).
  var capacity: Int { get }
  func sendNext(_ value: Int)
  func sendCompleted()
  func subscribe(_ recorder: Recorder<Int>) -> any Disposable
  var subscriberCount: Int { get }
  /// A behaviour subject's current value; `nil` for the others.
  var currentValue: Int? { get }
}

/// A `ReplaySubject` and the capacity it was made with.
struct ReplayingReplaySubject: ReplayingSubject {
  let subject: ReplaySubject<Int, StressFailure>
  let capacity: Int

  init(capacity: Int) {
    subject = ReplaySubject(capacity: capacity)
    self.capacity = capacity
  }

  func sendNext(_ value: Int) { subject.sendNext(value) }
  func sendCompleted() { subject.sendCompleted() }
  func subscribe(_ recorder: Recorder<Int>) -> any Disposable { recorder.subscribe(to: subject) }
  var subscriberCount: Int { subject.subscriberCount }
  var currentValue: Int? { nil }
}

// `subscribe(_:)` comes from `Subject`'s conformance to `HotSignal` (Subject.swift): a behaviour subject is a
// subject.
extension BehaviorSubject: ReplayingSubject where Value == Int, Failure == StressFailure {
  var capacity: Int { 1 }
  var currentValue: Int? { value }
}

/// Concurrent send / subscribe / dispose on a `ReplaySubject` (capacity 1, 2, 5, 20 or unlimited) or a
/// `BehaviorSubject`.
///
/// A reference subscriber, subscribed before anything is sent, records the subject's order. Two threads send
/// (each value is the epoch at which its send was issued); the others subscribe, wait a little and dispose, over
/// and over, and read a behaviour subject's `value`. In one iteration out of four they have no current scheduler;
/// the replay must still run at once, before `subscribe` returns (guarantee 5), so every iteration checks that no
/// value sent while subscribed is lost. Afterwards the
/// subject completes and one more subscriber must get the last values and the completion.
struct ReplaySubjectRace: Scenario {
  static let slice =
    "each subscriber receives a gap-free, duplicate-free, in-order run of the subject's order (live = replay order)"
  static let capacity = "a subscriber is replayed at most `capacity` of the values sent before it subscribed"
  static let replay = "a subscriber that attaches at once is replayed the latest min(capacity, n) values"
  static let noneLost = "a value sent while subscribed (after subscribe returned, before dispose was called) arrives"
  static let afterDispose = "no value sent after dispose() returned arrives"
  static let current = "BehaviorSubject.value is a value sent, never older than one read before it"
  static let late = "a subscriber after completion receives the last min(capacity, n) values, then completion"
  static let count = "subscriberCount counts the live subscriptions: back to the reference alone, then 0"

  let name = "ReplaySubject"
  let race = "two threads send into a ReplaySubject / BehaviorSubject while the others subscribe and dispose"
  let invariants = [
    slice, capacity, replay, noneLost, afterDispose, current, late, count, Delivery.serial, Delivery.terminal,
  ]
  let sabotage = BrokenReplaySubject.description

  func threads(requested: Int) -> Int { max(3, requested) }

  private struct Subscription {
    let recorder: Recorder<Int>
    let subscribeCalled: Int
    let subscribeReturned: Int
    let disposeCalled: Int
    let disposeReturned: Int
  }

  private struct Send {
    let issued: Int
    let returned: Int
  }

  func iterate(_ iteration: Iteration) {
    let values = 150
    let rounds = 8
    var random = iteration.random()
    let background = random.oneIn(4)
    let subject: any ReplayingSubject
    switch (iteration.isSabotaged, iteration.number % 3) {
    case (true, _): subject = BrokenReplaySubject(capacity: [1, 2, 5, 20][random.below(4)])
    case (false, 0): subject = ReplayingReplaySubject(capacity: [1, 2, 5, 20][random.below(4)])
    case (false, 1): subject = ReplayingReplaySubject(capacity: ReplaySubject<Int, StressFailure>.unlimitedCapacity)
    default: subject = BehaviorSubject<Int, StressFailure>(value: -1)
    }
    let reference = Recorder<Int>()
    let referenceSubscription = immediately { subject.subscribe(reference) }
    let clock = EpochClock()
    let sends = (0..<2).map { _ in Owned<[Int: Send]>([:]) }
    let subscriptions = (0..<iteration.threads).map { _ in Owned<[Subscription]>([]) }
    let reads = (0..<iteration.threads).map { _ in Owned<[Int]>([]) }
    iteration.race(withCurrentScheduler: !background) { thread, random in
      if thread < 2 {
        for _ in 0..<values {
          let issued = clock.tick()
          subject.sendNext(issued)
          sends[thread].value[issued] = Send(issued: issued, returned: clock.tick())
          if random.oneIn(16) { random.dawdle(2) }
        }
        iteration.count(values)
        return
      }
      for _ in 0..<rounds {
        let recorder = Recorder<Int>()
        let subscribeCalled = clock.tick()
        let disposable = subject.subscribe(recorder)
        let subscribeReturned = clock.tick()
        random.dawdle(8)
        if let value = subject.currentValue { reads[thread].value.append(value) }
        let disposeCalled = clock.tick()
        disposable.dispose()
        subscriptions[thread].value.append(
          Subscription(
            recorder: recorder, subscribeCalled: subscribeCalled, subscribeReturned: subscribeReturned,
            disposeCalled: disposeCalled, disposeReturned: clock.tick()))
      }
      iteration.count(2 * rounds)
    }
    var sent = sends[0].value.merging(sends[1].value) { first, _ in first }
    sent[-1] = Send(issued: 0, returned: 0)  // a behaviour subject's initial value, there before anything
    reference.checkDelivery(iteration, "the reference subscriber")
    let order = reference.values
    let positionInOrder = positions(of: order)
    for subscription in subscriptions.flatMap(\.value) {
      check(
        subscription, order: order, positions: positionInOrder, sent: sent, capacity: subject.capacity,
        attachesAtOnce: true, iteration)
    }
    for list in reads.map(\.value) {
      let indices = list.map { positionInOrder[$0] ?? -1 }
      iteration.check(
        !indices.contains(-1) && zip(indices, indices.dropFirst()).allSatisfy { $0 <= $1 }, Self.current,
        "values read, as positions in the subject's order: \(indices)")
    }
    let live = subject.subscriberCount
    iteration.check(live == 1, Self.count, "\(live) subscribers once only the reference is left")
    subject.sendCompleted()
    let lateRecorder = Recorder<Int>()
    _ = immediately { subject.subscribe(lateRecorder) }
    let expected = Array(order.suffix(min(subject.capacity, order.count)))
    iteration.check(
      lateRecorder.values == expected && lateRecorder.isCompleted && lateRecorder.terminals == 1, Self.late,
      "received \(lateRecorder.values.count) values (\(lateRecorder.values.suffix(3)) at the end), expected "
        + "\(expected.count) (\(expected.suffix(3))), then \(String(describing: lateRecorder.events.last))")
    referenceSubscription.dispose()
    iteration.check(
      reference.isCompleted && subject.subscriberCount == 0, Self.count,
      "\(subject.subscriberCount) subscribers after completion; the reference's last event "
        + String(describing: reference.events.last))
  }

  private func check(
    _ subscription: Subscription, order: [Int], positions: [Int: Int], sent: [Int: Send], capacity: Int,
    attachesAtOnce: Bool, _ iteration: Iteration
  ) {
    let recorder = subscription.recorder
    recorder.checkDelivery(iteration)
    let received = recorder.values
    if let problem = sliceProblem(received, of: order, positions: positions) {
      iteration.fail(Self.slice, problem)
      return
    }
    let replayed = received.filter { (sent[$0]?.returned ?? .max) < subscription.subscribeCalled }.count
    iteration.check(
      replayed <= capacity, Self.capacity, "\(replayed) values sent before subscribing replayed; capacity \(capacity)")
    if attachesAtOnce {
      let before = order.filter { (sent[$0]?.returned ?? .max) < subscription.subscribeCalled }.count
      let mayBeBefore = order.filter { (sent[$0]?.issued ?? .max) < subscription.subscribeReturned }.count
      let start = received.first.flatMap { positions[$0] }
      let latestStart = capacity >= mayBeBefore ? 0 : mayBeBefore - capacity
      iteration.check(
        before == 0 || (start ?? .max) <= latestStart, Self.replay,
        "replay starts at #\(start.map(String.init) ?? "none") of the subject's order; \(before) to \(mayBeBefore) "
          + "values were sent before, capacity \(capacity)")
      let receivedSet = Set(received)
      for value in order
      where sent[value].map({
        $0.issued > subscription.subscribeReturned && $0.returned < subscription.disposeCalled
      }) ?? false && !receivedSet.contains(value) {
        iteration.fail(
          Self.noneLost,
          "value \(value) sent while subscribed \(subscription.subscribeReturned)–\(subscription.disposeCalled) "
            + "never arrived")
        break
      }
    }
    if let late = received.first(where: { (sent[$0]?.issued ?? 0) > subscription.disposeReturned }) {
      iteration.fail(Self.afterDispose, "value \(late) arrived; dispose returned at \(subscription.disposeReturned)")
    }
  }
}
