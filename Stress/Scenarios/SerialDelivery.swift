import AsyncSignals

/// Many senders into one subscriber, with an overlap detector and re-entrant sends (guarantees 1 and 6).
///
/// Every thread sends 300 values into the same subscription: the subscriber of a `create` body on even
/// iterations, a subject's on odd ones. Every 16th value of each sender, the callback sends a marker back
/// into the subscription. A `create` subscriber (RAC's recursive delivery lock) delivers it at once, nested,
/// before the send returns; a subject queues it behind the value in progress, so that its other subscribers
/// do not receive it first, and delivers it next, before any other sender's value.
struct SerialDeliveryRace: Scenario {
  static let perSender = "every sender's values arrive exactly once, in the order sent"
  static let nested =
    "a re-entrant send is delivered at once (create) or right after the value in progress (subject) (guarantee 6)"

  let name = "SerialDelivery"
  let race = "every thread sends 300 values into one subscriber (create / subject); callbacks send back into it"
  let invariants = [Delivery.serial, perSender, nested]
  let sabotage = "a subscriber that calls its callbacks directly, without serialising them"

  func threads(requested: Int) -> Int { max(2, requested) }

  func iterate(_ iteration: Iteration) {
    let count = 300
    let threads = iteration.threads
    let markerBase = threads * 100_000
    let channel = Late<any Channel>()
    let nests = iteration.isSabotaged || iteration.number % 2 == 0
    let recorder = Recorder<Int> { recorder, event in
      guard let value = event.value, value < markerBase, value % 100_000 % 16 == 0 else { return }
      let marker = markerBase + value
      channel.value.send(.next(marker))
      if nests, recorder.log.value.last?.value != marker {
        iteration.fail(Self.nested, "marker for \(value) was not delivered before its send returned")
      }
    }
    switch (iteration.isSabotaged, nests) {
    case (true, _): channel.set(UnserialisedChannel(recorder))
    case (false, true): channel.set(CreateChannel(recorder))
    case (false, false): channel.set(SubjectChannel(recorder))
    }
    iteration.race { thread, random in
      for sequence in 0..<count {
        channel.value.send(.next(thread * 100_000 + sequence))
        if random.oneIn(64) { random.dawdle(2) }
      }
      iteration.count(count)
    }
    channel.value.dispose()
    recorder.checkDelivery(iteration)
    var next = Array(repeating: 0, count: threads)
    var markers = 0
    var previous: Int?
    for value in recorder.values {
      defer { previous = value }
      if value >= markerBase {
        markers += 1
        if !nests, previous != value - markerBase {
          iteration.fail(Self.nested, "marker for \(value - markerBase) arrived after \(previous.map(String.init) ?? "nothing")")
          return
        }
        continue
      }
      let (sender, sequence) = value.quotientAndRemainder(dividingBy: 100_000)
      if sequence != next[sender] {
        iteration.fail(Self.perSender, "sender \(sender): value \(sequence) arrived when \(next[sender]) was due")
        return
      }
      next[sender] += 1
    }
    iteration.check(
      next.allSatisfy { $0 == count }, Self.perSender, "values received per sender: \(next), \(count) sent each")
    let expectedMarkers = threads * ((count + 15) / 16)
    iteration.check(
      markers == expectedMarkers, Self.nested, "\(markers) markers delivered of \(expectedMarkers) sent")
  }
}
