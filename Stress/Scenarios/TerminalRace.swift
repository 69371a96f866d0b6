import AsyncSignals

/// Sends racing a terminal event and disposal, on a `create` subscriber (even iterations) and on a subject
/// (odd ones) (guarantee 2).
///
/// Values carry the epoch at which their send was issued; each sender also notes when the send returned.
/// Thread 0 terminates (completes or fails) at a random moment, thread 1 disposes at a random moment (each in
/// three iterations out of four), and all threads keep sending before and after. An event already being
/// delivered when `dispose()` is called may finish; what must hold is that no send issued after
/// `dispose()` — or the terminal send — returned is delivered, and that no send that returned before either
/// began is lost.
struct TerminalRaceScenario: Scenario {
  static let afterTerminal = "a send issued after the terminal send returned is not delivered"
  static let afterDispose = "no delivery starts after dispose() returned"
  static let noneLost = "an event sent (and returned) before the terminal event and disposal began is delivered"
  static let ended = "the subscription ends: the body's cleanup runs exactly once, the subject forgets it"

  let name = "TerminalRace"
  let race = "send vs complete/fail vs dispose on a create subscriber and on a subject"
  let invariants = [Delivery.terminal, afterTerminal, afterDispose, noneLost, ended, Delivery.serial]
  let sabotage = "a subscriber that records neither its terminal event nor its disposal"

  func threads(requested: Int) -> Int { max(3, requested) }

  private struct Send {
    let issued: Int
    let returned: Int
  }

  func iterate(_ iteration: Iteration) {
    let count = 60
    var random = iteration.random()
    let terminates = !random.oneIn(4)
    let disposes = !random.oneIn(4)
    let fails = random.oneIn(3)
    let terminateAt = random.below(count)
    let disposeAt = random.below(count)
    let recorder = Recorder<Int>()
    let channel: any Channel
    switch (iteration.isSabotaged, iteration.number % 2) {
    case (true, _): channel = UnguardedChannel(recorder)
    case (false, 0): channel = CreateChannel(recorder)
    case (false, _): channel = SubjectChannel(recorder)
    }
    let clock = EpochClock()
    let sends = (0..<iteration.threads).map { _ in Owned<[Send]>([]) }
    let terminal = Owned<(issued: Int, returned: Int)>((.max, .max))
    let disposal = Owned<(called: Int, returned: Int)>((.max, .max))
    iteration.race { thread, random in
      for index in 0..<count {
        if thread == 0 && terminates && index == terminateAt {
          let issued = clock.tick()
          channel.send(fails ? .error(StressFailure(code: 7)) : .completed)
          terminal.value = (issued, clock.tick())
        }
        if thread == 1 && disposes && index == disposeAt {
          let called = clock.tick()
          channel.dispose()
          disposal.value = (called, clock.tick())
        }
        let issued = clock.tick()
        channel.send(.next(issued))
        sends[thread].value.append(Send(issued: issued, returned: clock.tick()))
        if random.oneIn(16) { random.dawdle(2) }
      }
      iteration.count(count + 1)
    }
    channel.dispose()
    recorder.checkDelivery(iteration)
    let events = recorder.events
    let delivered = Set(recorder.values)
    let end = min(terminal.value.issued, disposal.value.called)
    for send in sends.flatMap(\.value) {
      let wasDelivered = delivered.contains(send.issued)
      if wasDelivered && send.issued > terminal.value.returned {
        iteration.fail(
          Self.afterTerminal, "value issued at \(send.issued), terminal returned at \(terminal.value.returned)")
      }
      if wasDelivered && send.issued > disposal.value.returned {
        iteration.fail(
          Self.afterDispose, "value issued at \(send.issued), dispose returned at \(disposal.value.returned)")
      }
      if !wasDelivered && send.returned < end {
        iteration.fail(
          Self.noneLost, "value issued at \(send.issued) returned at \(send.returned) before the end at \(end)")
      }
    }
    let terminalDelivered = events.contains(where: \.isTerminating)
    if terminalDelivered {
      iteration.check(
        terminal.value.issued < disposal.value.returned, Self.afterDispose,
        "terminal event issued at \(terminal.value.issued) after dispose returned at \(disposal.value.returned)")
    } else if terminates {
      iteration.check(
        terminal.value.returned > disposal.value.called, Self.noneLost,
        "terminal event returned at \(terminal.value.returned) before disposal at \(disposal.value.called) was lost")
    }
    if let leftover = channel.leftover { iteration.fail(Self.ended, leftover) }
  }
}
