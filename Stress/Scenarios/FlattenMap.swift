import AsyncSignals

/// `flattenMap` (RAC's `bind`, merging) with inner signals fed from several threads.
///
/// Thread 0 sends 20 values into the source; each becomes an inner `create` signal whose subscriber goes to
/// a mailbox, twice. The other threads take inner subscribers from the mailbox and send half of that inner's
/// 20 values each; whoever finishes an inner second completes it (or, in one iteration out of six, fails
/// one inner instead). Events from many threads meet in bind's outbox: downstream must still see one event
/// at a time, every value once, and completion once, after everything.
struct FlattenMapRace: Scenario {
  static let values = "every inner value arrives exactly once, each sender's half in order"
  static let completion = "completion arrives exactly once, after every value of every inner"
  static let failure = "an inner failure arrives exactly once and ends everything"
  static let cleanup = "every inner subscription and the source end: each cleanup runs exactly once"

  let name = "FlattenMap"
  let race = "one thread feeds the source; the others send into the inner signals, two threads per inner"
  let invariants = [Delivery.serial, Delivery.terminal, values, completion, failure, cleanup]
  let sabotage = BrokenFlattenMap.description

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let innerCount = 20
    let perInner = 20
    var random = iteration.random()
    let failing = random.oneIn(6) ? random.below(innerCount) : nil
    let mailbox = Mailbox<(index: Int, subscriber: any Subscriber<Int, StressFailure>)?>()
    let innerCleanups = (0..<innerCount).map { _ in Tally() }
    let claims = (0..<innerCount).map { _ in Tally() }
    let finished = (0..<innerCount).map { _ in Tally() }
    let posted = Tally()
    let source = Source<Int>()
    let transform: @Sendable (Int) -> Signal<Int, StressFailure> = { index in
      .create { subscriber in
        mailbox.post((index, subscriber))
        mailbox.post((index, subscriber))
        posted.increment()
        return ActionDisposable { innerCleanups[index].increment() }
      }
    }
    let flattened =
      iteration.isSabotaged
      ? BrokenFlattenMap.flattenMap(source.signal, transform) : source.signal.flattenMap(transform)
    let recorder = Recorder<Int>()
    let subscription = immediately { recorder.subscribe(to: flattened) }
    let tickets = Tally()
    iteration.race { thread, random in
      if thread == 0 {
        let subscriber = source.subscriber
        for index in 0..<innerCount {
          subscriber.sendNext(index)
          if random.oneIn(4) { random.dawdle(2) }
        }
        subscriber.sendCompleted()
        // Inners never created (the binding failed first) still owe the workers their two mailbox items.
        for _ in posted.value..<innerCount { mailbox.post(nil, count: 2) }
        iteration.count(innerCount + 1)
        return
      }
      while tickets.increment() <= 2 * innerCount {
        guard let (index, subscriber) = mailbox.take() else { continue }
        // The first of the two threads that take an inner sends its first half, the second its second half.
        let first = index * perInner + (claims[index].increment() == 1 ? 0 : perInner / 2)
        for value in first..<(first + perInner / 2) {
          subscriber.sendNext(value)
          if random.oneIn(8) { random.dawdle(1) }
        }
        if finished[index].increment() == 2 {
          if index == failing {
            subscriber.sendError(StressFailure(code: index))
          } else {
            subscriber.sendCompleted()
          }
        }
        iteration.count(perInner / 2 + 1)
      }
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    check(recorder, failing: failing, innerCount: innerCount, perInner: perInner, iteration)
    let cleanups = innerCleanups.map(\.value)
    iteration.check(
      cleanups.prefix(posted.value).allSatisfy { $0 == 1 } && source.cleanups.value == 1, Self.cleanup,
      "inner cleanups ran \(cleanups) times, the source's \(source.cleanups.value)")
  }

  private func check(_ recorder: Recorder<Int>, failing: Int?, innerCount: Int, perInner: Int, _ iteration: Iteration) {
    let values = recorder.values
    var next: [Int: Int] = [:]  // per (inner, half): the next value due
    for value in values {
      let half = value / (perInner / 2)
      let due = next[half] ?? half * (perInner / 2)
      if value != due {
        iteration.fail(Self.values, "value \(value) arrived when \(due) was due from its sender")
        return
      }
      next[half] = due + 1
    }
    if let failing {
      iteration.check(
        recorder.terminals == 1 && recorder.events.last?.failure == StressFailure(code: failing), Self.failure,
        "events end with \(String(describing: recorder.events.last)), \(recorder.terminals) terminal events")
    } else {
      iteration.check(
        values.count == innerCount * perInner, Self.values, "\(values.count) of \(innerCount * perInner) values")
      iteration.check(
        recorder.isCompleted && recorder.terminals == 1, Self.completion,
        "after \(values.count) of \(innerCount * perInner) values: \(String(describing: recorder.events.last))")
    }
  }
}
