import AsyncSignals

/// `switchToLatest()` switching while several threads send into the inners, the current and replaced ones.
///
/// Thread 0 sends 12 inner signals into the outer signal, pausing between them, then completes the outer and,
/// once the senders have stopped, the last inner. Each inner is a `create` signal whose body (run by the switch,
/// on thread 0) publishes its subscriber. The other threads keep sending into the newest published inner (three
/// times in four) or an older one, each value being the epoch at which its send was issued, and now and then
/// complete an inner.
///
/// "The switch to inner k" is the outer's `sendNext(inner k)`: when it returns, the switch has been decided and
/// inner k subscribed. So a value that an earlier inner sends after that return must never be delivered, while a
/// value that inner k sends after it, and that returns before the switch to inner k + 1 is issued (and before
/// inner k is completed), must be. Downstream, the inners follow one another: once a value of inner k has been
/// delivered, no value of an earlier inner is.
struct SwitchToLatestRace: Scenario {
  static let innerOrder = "values arrive inner by inner: none of an earlier inner after one of a later inner"
  static let afterSwitch = "no value an inner sent after the switch to a later inner returned is delivered"
  static let noneLost =
    "a value the latest inner sent after its switch returned, returning before the next switch, arrives"
  static let perSender = "each sender's values into one inner arrive in the order sent"
  static let completion =
    "completion arrives exactly once, once the outer and the latest inner completed (a replaced inner's does not count)"
  static let cleanup = "every inner subscription and the outer's end: each cleanup runs exactly once"

  let name = "SwitchToLatest"
  let race = "one thread switches between 12 inners; the others send into the latest (and older) inners"
  let invariants = [
    innerOrder, afterSwitch, noneLost, perSender, completion, cleanup, Delivery.serial, Delivery.terminal,
  ]
  let sabotage = BrokenSwitchToLatest.description

  func threads(requested: Int) -> Int { max(3, requested) }

  private struct Send {
    let inner: Int
    let issued: Int
    let returned: Int
    let completes: Bool
  }

  func iterate(_ iteration: Iteration) {
    let innerCount = 12
    let maxSends = 400
    let clock = EpochClock()
    let published = Slots<any Subscriber<Int, StressFailure>>(capacity: innerCount)
    let innerCleanups = (0..<innerCount).map { _ in Tally() }
    let inners = (0..<innerCount).map { index in
      Signal<Int, StressFailure>.create { subscriber in
        published.publish(subscriber)
        return ActionDisposable { innerCleanups[index].increment() }
      }
    }
    let outer = Source<Signal<Int, StressFailure>>()
    let switched =
      iteration.isSabotaged ? BrokenSwitchToLatest.switchToLatest(outer.signal) : outer.signal.switchToLatest()
    let recorder = Recorder<Int>()
    let subscription = immediately { recorder.subscribe(to: switched) }
    let outerSubscriber = outer.subscriber
    let switches = Owned<[(issued: Int, returned: Int)]>([])
    let sends = (0..<iteration.threads).map { _ in Owned<[Send]>([]) }
    let switching = Flag()
    let stopped = Tally()
    iteration.race { thread, random in
      if thread == 0 {
        for inner in inners {
          let issued = clock.tick()
          outerSubscriber.sendNext(inner)
          switches.value.append((issued, clock.tick()))
          random.dawdle(24)
        }
        outerSubscriber.sendCompleted()
        switching.set()
        while stopped.value < iteration.threads - 1 { random.dawdle(1) }
        let last = published[innerCount - 1]
        let issued = clock.tick()
        last.sendCompleted()
        sends[0].value.append(Send(inner: innerCount - 1, issued: issued, returned: clock.tick(), completes: true))
        iteration.count(innerCount + 2)
        return
      }
      var count = 0
      while !switching.isSet && count < maxSends {
        guard let (newest, _) = published.latest else {
          random.dawdle(1)
          continue
        }
        let inner = random.oneIn(4) ? random.below(newest + 1) : newest
        let subscriber = published[inner]
        let completes = random.oneIn(64)
        let issued = clock.tick()
        if completes { subscriber.sendCompleted() } else { subscriber.sendNext(issued) }
        sends[thread].value.append(Send(inner: inner, issued: issued, returned: clock.tick(), completes: completes))
        count += 1
        if random.oneIn(8) { random.dawdle(2) }
      }
      stopped.increment()
      iteration.count(count)
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    check(recorder, switches: switches.value, sends: sends.map(\.value), iteration)
    let cleanups = innerCleanups.map(\.value)
    iteration.check(
      cleanups.allSatisfy { $0 == 1 } && outer.cleanups.value == 1, Self.cleanup,
      "the inners' cleanups ran \(cleanups) times, the outer's \(outer.cleanups.value)")
  }

  private func check(
    _ recorder: Recorder<Int>, switches: [(issued: Int, returned: Int)], sends: [[Send]], _ iteration: Iteration
  ) {
    var sent: [Int: (sender: Int, send: Send)] = [:]
    var completedAt = Array(repeating: Int.max, count: switches.count)  // the first completion issued, per inner
    for (sender, list) in sends.enumerated() {
      for send in list {
        if send.completes {
          completedAt[send.inner] = min(completedAt[send.inner], send.issued)
        } else {
          sent[send.issued] = (sender, send)
        }
      }
    }
    var latestInner = 0
    var lastPerStream: [Int: Int] = [:]  // per (sender, inner): the last value delivered
    for value in recorder.values {
      guard let (sender, send) = sent[value] else {
        iteration.fail(Self.innerOrder, "value \(value) was never sent")
        return
      }
      if send.inner < latestInner {
        iteration.fail(Self.innerOrder, "a value of inner \(send.inner) after one of inner \(latestInner)")
        return
      }
      latestInner = send.inner
      if send.inner + 1 < switches.count && send.issued > switches[send.inner + 1].returned {
        iteration.fail(
          Self.afterSwitch,
          "inner \(send.inner) sent \(value) after the switch to inner \(send.inner + 1) returned at "
            + "\(switches[send.inner + 1].returned)")
        return
      }
      let stream = sender * 100 + send.inner
      if let last = lastPerStream[stream], last >= value {
        iteration.fail(Self.perSender, "sender \(sender), inner \(send.inner): \(value) after \(last)")
        return
      }
      lastPerStream[stream] = value
    }
    let delivered = Set(recorder.values)
    for (_, send) in sent.values.sorted(by: { $0.send.issued < $1.send.issued }) {
      let nextSwitch = send.inner + 1 < switches.count ? switches[send.inner + 1].issued : .max
      guard send.issued > switches[send.inner].returned, send.returned < nextSwitch,
        send.returned < completedAt[send.inner], !delivered.contains(send.issued)
      else { continue }
      iteration.fail(
        Self.noneLost,
        "inner \(send.inner) sent \(send.issued) (returned \(send.returned)) after its switch returned at "
          + "\(switches[send.inner].returned), before the next at \(nextSwitch); it never arrived")
      return
    }
    iteration.check(
      recorder.isCompleted && recorder.terminals == 1, Self.completion,
      "events end with \(String(describing: recorder.events.last)), \(recorder.terminals) terminal events")
  }
}
