import AsyncSignals
import Dispatch

/// `deliver(on:)` on real `QueueScheduler`s, fed by concurrent senders.
///
/// A subject's order is recorded by a reference subscriber. Three more subscribers receive it through
/// `deliver(on:)`, two on one scheduler and one on another. All threads but the last send 150 values each into
/// the subject (the last of them to finish completes it); the last thread disposes one of the delivering
/// subscriptions at a random moment. Every subscriber must receive the subject's order, on its scheduler, one
/// event at a time; the disposed one a prefix of it, and nothing sent after `dispose()` returned.
struct DeliverOnRace: Scenario {
  static let order = "each subscriber receives every value in the subject's order, then completion"
  static let onScheduler = "every event is delivered on the subscriber's scheduler"
  static let afterDispose =
    "a disposed subscriber receives a prefix of the order, nothing sent after dispose() returned"

  let name = "DeliverOn"
  let race = "threads send into a subject whose subscribers receive through deliver(on:); one is disposed meanwhile"
  let invariants = [order, onScheduler, afterDispose, Delivery.serial, Delivery.terminal]
  let sabotage = BrokenDeliverOn.description

  static let schedulers = [QueueScheduler(name: "Stress.DeliverOn.0"), QueueScheduler(name: "Stress.DeliverOn.1")]

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let values = 150
    let subject = Subject<Int, StressFailure>()
    let reference = Recorder<Int>()
    let clock = EpochClock()
    let offScheduler = Tally()
    let routes = [Self.schedulers[0], Self.schedulers[1], Self.schedulers[0]]
    let recorders = routes.map { scheduler in
      Recorder<Int> { _, _ in
        if Schedulers.current !== scheduler { offScheduler.increment() }
      }
    }
    let subscriptions = immediately {
      [reference.subscribe(to: subject)]
        + zip(recorders, routes).map { recorder, scheduler in
          recorder.subscribe(
            to: iteration.isSabotaged
              ? BrokenDeliverOn.deliver(subject, on: scheduler) : subject.deliver(on: scheduler))
        }
    }
    let senders = iteration.threads - 1
    let finished = Tally()
    let disposeReturned = Owned(Int.max)
    iteration.race { thread, random in
      if thread == senders {
        random.dawdle(64)
        subscriptions[3].dispose()
        disposeReturned.value = clock.tick()
        iteration.count(1)
        return
      }
      for _ in 0..<values {
        subject.sendNext(clock.tick())
        if random.oneIn(16) { random.dawdle(2) }
      }
      if finished.increment() == senders { subject.sendCompleted() }
      iteration.count(values)
    }
    if iteration.isSabotaged { BrokenDeliverOn.queue.sync(flags: .barrier) {} }
    for scheduler in Self.schedulers { scheduler.queue.sync {} }
    for subscription in subscriptions { subscription.dispose() }
    let expected = reference.values
    for (index, recorder) in recorders.enumerated() {
      recorder.checkDelivery(iteration, "subscriber \(index)")
      let received = recorder.values
      if index < 2 {
        iteration.check(
          received == expected && recorder.isCompleted && recorder.terminals == 1, Self.order,
          "subscriber \(index) received \(received.count) of \(expected.count) values"
            + (received == Array(expected.prefix(received.count)) ? " (a prefix)" : ", out of order")
            + ", then \(String(describing: recorder.events.last))")
      } else {
        iteration.check(
          received == Array(expected.prefix(received.count)), Self.afterDispose,
          "the disposed subscriber's \(received.count) values are not a prefix of the subject's order")
        if let late = received.first(where: { $0 > disposeReturned.value }) {
          iteration.fail(
            Self.afterDispose, "value sent at \(late) arrived; dispose returned at \(disposeReturned.value)")
        }
      }
    }
    iteration.check(offScheduler.value == 0, Self.onScheduler, "\(offScheduler.value) events off their scheduler")
  }
}
