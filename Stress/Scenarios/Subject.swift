import AsyncSignals

/// What the race needs of a subject; the library's `Subject` and the broken twin.
protocol HotSignal: Sendable {
  func sendNext(_ value: Int)
  func subscribe(_ recorder: Recorder<Int>) -> any Disposable
  var subscriberCount: Int { get }
}

extension Subject: HotSignal where Value == Int, Failure == StressFailure {
  func subscribe(_ recorder: Recorder<Int>) -> any Disposable { recorder.subscribe(to: self) }
}

/// Concurrent send / subscribe / dispose on one `Subject`.
///
/// Two threads send (each value is the epoch at which its send was issued); the others subscribe, wait a
/// little, and dispose, over and over. A delivery already in progress when `dispose()` is called may finish,
/// so the check is on sends: one issued after `dispose()` returned must not reach that subscriber, and one
/// issued after `subscribe` returned that returned before `dispose()` was called must.
struct SubjectRace: Scenario {
  static let inOrder = "each subscriber receives a sender's values in the order sent"
  static let noneLost = "a value sent while subscribed (after subscribe returned, before dispose was called) arrives"
  static let afterDispose = "no delivery starts after dispose() returned"
  static let count = "subscriberCount returns to 0 once every subscription is disposed"

  let name = "Subject"
  let race = "two threads send into a subject while the others subscribe and dispose, over and over"
  let invariants = [Delivery.serial, inOrder, noneLost, afterDispose, count]
  let sabotage = "a subject that calls subscribers unserialised and forgets a disposed one only at the next send"

  func threads(requested: Int) -> Int { max(3, requested) }

  private struct Subscription {
    let recorder: Recorder<Int>
    let subscribed: Int
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
    let subject: any HotSignal = iteration.isSabotaged ? BrokenSubject() : Subject<Int, StressFailure>()
    let clock = EpochClock()
    let sends = (0..<2).map { _ in Owned<[Send]>([]) }
    let subscriptions = (0..<iteration.threads).map { _ in Owned<[Subscription]>([]) }
    iteration.race { thread, random in
      if thread < 2 {
        for _ in 0..<values {
          let issued = clock.tick()
          subject.sendNext(issued)
          sends[thread].value.append(Send(issued: issued, returned: clock.tick()))
          if random.oneIn(16) { random.dawdle(2) }
        }
        iteration.count(values)
        return
      }
      for _ in 0..<rounds {
        let recorder = Recorder<Int>()
        let disposable = subject.subscribe(recorder)
        let subscribed = clock.tick()
        random.dawdle(8)
        let disposeCalled = clock.tick()
        disposable.dispose()
        subscriptions[thread].value.append(
          Subscription(
            recorder: recorder, subscribed: subscribed, disposeCalled: disposeCalled, disposeReturned: clock.tick()))
      }
      iteration.count(2 * rounds)
    }
    var sender: [Int: Int] = [:]
    for (index, list) in sends.enumerated() {
      for send in list.value { sender[send.issued] = index }
    }
    let allSends = sends.flatMap(\.value)
    for subscription in subscriptions.flatMap(\.value) {
      let recorder = subscription.recorder
      recorder.checkDelivery(iteration)
      var last = [-1, -1]
      for value in recorder.values {
        guard let from = sender[value] else { continue }
        iteration.check(value > last[from], Self.inOrder, "value \(value) of sender \(from) after \(last[from])")
        last[from] = value
        iteration.check(
          value < subscription.disposeReturned, Self.afterDispose,
          "value issued at \(value) delivered; dispose returned at \(subscription.disposeReturned)")
      }
      let received = Set(recorder.values)
      for send in allSends
      where send.issued > subscription.subscribed && send.returned < subscription.disposeCalled
        && !received.contains(send.issued)
      {
        iteration.fail(
          Self.noneLost,
          "value issued at \(send.issued), returned at \(send.returned), subscribed \(subscription.subscribed)"
            + "–\(subscription.disposeCalled)")
      }
    }
    iteration.check(
      subject.subscriberCount == 0, Self.count, "\(subject.subscriberCount) subscribers left after every disposal")
  }
}
