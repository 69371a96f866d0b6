import AsyncSignals

/// What the race needs of a multicast connection: the library's `MulticastConnection` and the broken twin.
protocol Connectable: Sendable {
  var signal: Signal<Int, StressFailure> { get }
  func connect() -> any Disposable
}

extension MulticastConnection: Connectable where Value == Int, Failure == StressFailure {}

/// Concurrent `connect()` on one `MulticastConnection` (`publish()` on even iterations, `multicast(ReplaySubject())`
/// on odd ones).
///
/// Every thread subscribes to the connection's signal, then calls `connect()`, at the same moment as the others.
/// The upstream `create` body sends ten values synchronously, so the thread whose `connect()` won — it subscribed
/// first — receives them all; the others receive a suffix of them (all of them from the replay subject). Once
/// the race is over, ten more values are sent upstream and every subscriber receives them.
struct ConnectRace: Scenario {
  static let once = "the upstream is subscribed exactly once, however many connect() calls race"
  static let same = "every connect() returns the same disposable"
  static let suffix =
    "each subscriber receives a gap-free, in-order suffix of the upstream's values (all of them, for the winner)"
  static let disposal = "disposing the connection disposes the upstream subscription once; connect() does not reconnect"

  let name = "Connect"
  let race = "every thread subscribes to a multicast connection's signal and calls connect() at the same moment"
  let invariants = [once, same, suffix, disposal, Delivery.serial]
  let sabotage = BrokenConnection.description

  func threads(requested: Int) -> Int { max(2, requested) }

  func iterate(_ iteration: Iteration) {
    let early = 10
    let bodies = Tally()
    let cleanup = Probe(id: 0)
    let winner = LockedBox<UInt?>(nil)
    let upstreamSubscriber = LockedBox<(any Subscriber<Int, StressFailure>)?>(nil)
    let upstream = Signal<Int, StressFailure>.create { subscriber in
      bodies.increment()
      winner.value = currentThreadToken()
      upstreamSubscriber.value = subscriber
      for value in 0..<early { subscriber.sendNext(value) }
      return cleanup
    }
    let replays = iteration.number % 2 == 1
    let connection: any Connectable =
      iteration.isSabotaged
      ? BrokenConnection(upstream)
      : replays ? upstream.multicast(ReplaySubject<Int, StressFailure>()) : upstream.publish()
    let recorders = (0..<iteration.threads).map { _ in Recorder<Int>() }
    let tokens = (0..<iteration.threads).map { _ in Owned<UInt>(0) }
    let connections = (0..<iteration.threads).map { _ in Owned<(any Disposable)?>(nil) }
    let subscriptions = (0..<iteration.threads).map { _ in Owned<(any Disposable)?>(nil) }
    iteration.race { thread, random in
      tokens[thread].value = currentThreadToken()
      subscriptions[thread].value = recorders[thread].subscribe(to: connection.signal)
      random.dawdle(2)
      connections[thread].value = connection.connect()
      iteration.count(2)
    }
    iteration.check(bodies.value == 1, Self.once, "the upstream was subscribed \(bodies.value) times")
    let disposables = connections.compactMap(\.value)
    iteration.check(
      disposables.allSatisfy { $0 === disposables[0] }, Self.same,
      "connect() returned \(Set(disposables.map { ObjectIdentifier($0) }).count) different disposables")
    if let subscriber = upstreamSubscriber.value {
      for value in early..<(2 * early) { subscriber.sendNext(value) }
    }
    for (thread, recorder) in recorders.enumerated() {
      recorder.checkDelivery(iteration)
      let values = recorder.values
      let first = values.first ?? 2 * early
      let wins = tokens[thread].value == winner.value
      iteration.check(
        values == Array(first..<(2 * early)) && (!(wins || replays) || first == 0), Self.suffix,
        "thread \(thread)\(wins ? " (whose connect() won)" : "") received \(values)")
    }
    disposables.first?.dispose()
    let reconnection = connection.connect()
    iteration.check(
      cleanup.disposeCount == 1 && bodies.value == 1 && reconnection === disposables.first, Self.disposal,
      "after disposal: upstream cleanup disposed \(cleanup.disposeCount) times, subscribed \(bodies.value) times, "
        + "connect() returned \(reconnection === disposables.first ? "the same" : "another") disposable")
    for subscription in subscriptions { subscription.value?.dispose() }
  }
}
